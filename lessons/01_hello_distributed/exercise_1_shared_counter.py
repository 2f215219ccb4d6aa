"""Lesson 1, exercise 1 -- one counter for three sessions.

Each visit below opens a new Session and adds 1 to `counter`. As written, every visit prints
"counter = 1": each in-process session (target '') has variables of its own, which vanish
when it closes, so every visit must initialize the counter again.

TODO: make the three sessions share one counter, so that the visits print 1, 2, 3 and the
      last line says "counter after 3 sessions: 3". Two changes:
        1. open each session on the server's master (which target?);
        2. initialize the counter once, not on every visit (on the server it survives the
           session that initialized it -- initializing it again would reset it).
Check: pytest lessons/01_hello_distributed -k shared_counter
"""
import sandbox as tf

server = tf.train.Server.create_local_server()

counter = tf.Variable(0, name="counter")
increment = counter.assign_add(1)

for visit in range(3):
    with tf.Session() as sess:                      # TODO 1: which target?
        sess.run(counter.initializer)               # TODO 2: on every visit?
        value = sess.run(increment)
        print("visit %d: counter = %d" % (visit, value))
print("counter after 3 sessions: %d" % value)
