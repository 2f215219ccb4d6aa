"""Lesson 1 -- the hello world of distributed TensorFlow: a one-task cluster in this process.

    python lessons/01_hello_distributed/hello_local_server.py

`tf.train.Server.create_local_server()` starts a server for a cluster of one task (job
"local", task 0) on a free port of localhost. Every server runs a master service and a worker
service; `server.target` is the address of its master, "grpc://localhost:<port>". A Session
created with that target sends its graph to that master, which runs it on the server's
worker and sends the result back.
"""
import sandbox as tf

server = tf.train.Server.create_local_server()
print("server.target:", server.target)        # grpc://localhost:<a free port>

# Building the graph computes nothing: `hello` is a symbolic tensor, a promise of a value.
hello = tf.constant("Hello, distributed TensorFlow!")
print("before any session:", hello)

# The session ships the graph to the server's master; sess.run asks that master for `hello`.
with tf.Session(server.target) as sess:
    print(sess.run(hello).decode())           # a string tensor comes back as bytes

# No server.stop(): TensorFlow's Server has none -- it serves until its process exits.
