"""Lesson 3: how nested tf.device scopes merge, field by field -- no cluster needed.

tf.device only *records* a request on each op (op.device); nothing runs here. The placer
turns those requests into one concrete device per op when a Session first runs the op
(see placement.py). Run it:   python lessons/03_placing_ops/device_scopes.py
"""
import sandbox as tf


def show(label, op):
    print(f"{label:<46} {op.name:<10} device={op.device!r}")


# 1. An inner scope fills in only the fields it names; the outer scope keeps the rest.
with tf.device("/job:worker/task:1"):
    a = tf.constant(1.0, name="a")
    with tf.device("/gpu:0"):
        b = tf.constant(2.0, name="b")
show("'/job:worker/task:1'", a.op)
show("'/job:worker/task:1' then '/gpu:0'", b.op)

# 2. A field the inner scope names overrides the outer one: here the job (and the task).
with tf.device("/job:worker/task:1"):
    with tf.device("/job:ps"):
        c = tf.constant(3.0, name="c")
    with tf.device("/job:ps/task:0"):
        d = tf.constant(4.0, name="d")
show("'/job:worker/task:1' then '/job:ps'", c.op)
show("'/job:worker/task:1' then '/job:ps/task:0'", d.op)

# 3. Three levels: each one fills what the inner ones left unset.
with tf.device("/job:worker"):
    with tf.device("/task:2"):
        with tf.device("/cpu:0"):
            e = tf.constant(5.0, name="e")
show("'/job:worker' then '/task:2' then '/cpu:0'", e.op)

# 4. tf.device(None) clears every enclosing scope: the op asks for nothing.
with tf.device("/job:worker/task:1"):
    with tf.device(None):
        f = tf.constant(6.0, name="f")
show("'/job:worker/task:1' then None", f.op)

# 5. A device function: called with each new op, returns its device. This one puts the
#    variables on the ps and everything else on worker 0 (replica_device_setter, lesson 6,
#    is a device function of this kind).
def variables_on_ps(op):
    if op.type in ("Variable", "VariableV2", "VarHandleOp"):
        return "/job:ps/task:0"
    return "/job:worker/task:0"


with tf.device(variables_on_ps):
    w = tf.Variable(7.0, name="w")
    y = tf.multiply(w, 2.0, name="y")
show("device function, the variable", w.op)
show("device function, the multiply", y.op)

# 6. A DeviceSpec says the same thing as a string, field by field.
spec = tf.DeviceSpec(job="worker", task=0, device_type="GPU", device_index=1)
print("DeviceSpec(job='worker', task=0, device_type='GPU', device_index=1).to_string():",
      spec.to_string())
with tf.device(spec):
    g = tf.constant(8.0, name="g")
show("tf.device(DeviceSpec(...))", g.op)
