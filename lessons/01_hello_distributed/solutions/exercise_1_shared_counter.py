"""Lesson 1, exercise 1 -- one counter for three sessions (solution).

The counter lives in the server's worker service: every session on server.target uses the
same one, and it outlives each session. So it is initialized once, by the first visit.
"""
import sandbox as tf

server = tf.train.Server.create_local_server()

counter = tf.Variable(0, name="counter")
increment = counter.assign_add(1)

for visit in range(3):
    with tf.Session(server.target) as sess:         # the server's master, not this process
        if visit == 0:                              # once: the server keeps the variable
            sess.run(counter.initializer)
        value = sess.run(increment)
        print("visit %d: counter = %d" % (visit, value))
print("counter after 3 sessions: %d" % value)
