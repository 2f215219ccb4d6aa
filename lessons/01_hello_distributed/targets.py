"""Lesson 1 -- what a target is: the same graph run by an in-process session and by sessions
on a server's master, and where the variables live in each case.

    python lessons/01_hello_distributed/targets.py

A target names the runtime a Session uses:
  ''                       this process runs the graph itself (TF's DirectSession);
  'grpc://localhost:2222'  the master service of the server at that address runs it
                           (TF's GrpcSession talks to that master).
"""
import sandbox as tf

server = tf.train.Server.create_local_server()
other_server = tf.train.Server.create_local_server()
target = server.target
print("server.target:", target)
print("server.server_def:")
print(server.server_def)            # the one-task cluster: job, task 0, port 0 = any free port

counter = tf.Variable(0, name="counter")
increment = counter.assign_add(1)


def devices(sess):
    return [d.name for d in sess.list_devices()]


# 1. What each session can use: its runtime's devices.
with tf.Session() as sess:                              # target '': this process
    print("Session('') sees:", devices(sess))
with tf.Session(target) as sess:                        # the server's master
    print("Session(server.target) sees:", devices(sess))

# 2. Where the variables live. An in-process session has variables of its own, gone when it
#    closes; a server keeps its variables for every session on its master, until it exits.
print("three in-process sessions, each initializing the counter:")
for visit in range(3):
    with tf.Session() as sess:
        sess.run(counter.initializer)
        print("  Session(''): counter =", sess.run(increment))

print("three sessions on server.target, the first one initializing the counter:")
for visit in range(3):
    with tf.Session(target) as sess:
        if visit == 0:
            sess.run(counter.initializer)
        print("  Session(server.target): counter =", sess.run(increment))

# 3. A target is only a string: whoever has it reaches the same master (and its variables).
host_port = target[len("grpc://"):]
with tf.Session("grpc://" + host_port) as sess:
    print("a session on 'grpc://' + host_port reads counter =", sess.run(counter))

# 4. Another server is another master, with variables of its own.
with tf.Session(other_server.target) as sess:
    try:
        sess.run(counter)
    except tf.errors.FailedPreconditionError:
        print("on another server's target: counter is not initialized there "
              "(FailedPreconditionError)")
