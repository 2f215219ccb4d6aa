"""Lesson 3, exercise 2: a device function of your own.

`tf.device` also takes a function: it is called with every new op and returns the device the
op asks for. Write `place(op)` so that
  * every variable (op.type "VariableV2", or "Variable" / "VarHandleOp") goes to a ps task,
    round robin over NUM_PS tasks in the order the variables are created: the first to
    /job:ps/task:0, the second to /job:ps/task:1, the third to /job:ps/task:0 again ...;
  * every other op goes to /job:worker/task:0.
(That is what tf.train.replica_device_setter does -- lesson 6 -- without its details.)
Nothing runs here: the program prints the device each op asks for (op.device).

Run it:    python lessons/03_placing_ops/exercise_2_device_function.py
Check it:  pytest lessons/03_placing_ops -k exercise_2
"""
import sandbox as tf

NUM_PS = 2
VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def place(op):
    # TODO: return '/job:ps/task:<k>' for the variables (round robin) and
    #       '/job:worker/task:0' for every other op. Returning "" asks for nothing.
    return ""


with tf.device(place):
    w1 = tf.Variable(tf.ones([3, 4]), name="w1")
    w2 = tf.Variable(tf.ones([4, 2]), name="w2")
    w3 = tf.Variable(tf.zeros([2]), name="w3")
    x = tf.constant([[1.0, 2.0, 3.0]], name="x")
    h = tf.matmul(x, w1, name="h")
    y = tf.add(tf.matmul(h, w2, name="hw"), w3, name="y")

for op in (w1.op, w2.op, w3.op, h.op, y.op):
    print("%-3s %-11s asks for %r" % (op.name, op.type, op.device))
