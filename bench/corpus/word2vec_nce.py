"""Skip-gram word2vec with NCE -- the TF-1 tutorial's word2vec_basic.py on a tiny made-up
language ("the cat eats the grass", five animals, four verbs, five foods): build the vocabulary
and generate_batch's (center, context) pairs as the tutorial does, embed with
tf.nn.embedding_lookup (on /cpu:0), train tf.nn.nce_loss with 8 sampled classes by plain SGD,
then normalise the embeddings and score the words by similarity (a matmul with
transpose_b=True). Accuracy: the share of the 14 content words whose nearest neighbour is of
the same kind (animal, verb or food). NCE samples its negative classes at random, so the
numbers differ between TensorFlow and the sandbox; the learning does not.

    python bench/corpus/word2vec_nce.py --sandbox|--tf [--steps N]
"""
import collections
import math
import random
import time

import numpy as np

import corpus_common

args = corpus_common.parse_args(__doc__, steps=1500)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
random.seed(args.seed)

KINDS = {"animal": ["cat", "dog", "horse", "cow", "sheep"],
         "verb": ["eats", "sees", "likes", "chases"],
         "food": ["grass", "meat", "fish", "hay", "corn"]}
rng = np.random.RandomState(args.seed)
words = []
for _ in range(3000):
    words += ["the", KINDS["animal"][rng.randint(5)], KINDS["verb"][rng.randint(4)], "the",
              KINDS["food"][rng.randint(5)]]
count = [["UNK", -1]] + collections.Counter(words).most_common(19)
dictionary = {word: i for i, (word, _) in enumerate(count)}
reverse_dictionary = {i: word for word, i in dictionary.items()}
data = [dictionary.get(word, 0) for word in words]
vocabulary_size = len(dictionary)
data_index = 0


def generate_batch(batch_size, num_skips, skip_window):
    global data_index
    batch = np.ndarray(shape=(batch_size,), dtype=np.int32)
    labels = np.ndarray(shape=(batch_size, 1), dtype=np.int32)
    span = 2 * skip_window + 1
    buffer = collections.deque(maxlen=span)
    if data_index + span > len(data):
        data_index = 0
    buffer.extend(data[data_index:data_index + span])
    data_index += span
    for i in range(batch_size // num_skips):
        context_words = [w for w in range(span) if w != skip_window]
        for j, context_word in enumerate(random.sample(context_words, num_skips)):
            batch[i * num_skips + j] = buffer[skip_window]
            labels[i * num_skips + j, 0] = buffer[context_word]
        if data_index == len(data):
            buffer.extend(data[0:span])
            data_index = span
        else:
            buffer.append(data[data_index])
            data_index += 1
    data_index = (data_index + len(data) - span) % len(data)
    return batch, labels


BATCH, EMBEDDING, NUM_SAMPLED = 64, 16, 8
tf.set_random_seed(args.seed)
train_inputs = tf.placeholder(tf.int32, shape=[BATCH])
train_labels = tf.placeholder(tf.int32, shape=[BATCH, 1])
with tf.device("/cpu:0"):
    embeddings = tf.Variable(tf.random_uniform([vocabulary_size, EMBEDDING], -1.0, 1.0))
    embed = tf.nn.embedding_lookup(embeddings, train_inputs)
    nce_weights = tf.Variable(tf.truncated_normal([vocabulary_size, EMBEDDING],
                                                  stddev=1.0 / math.sqrt(EMBEDDING)))
    nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases,
                                     labels=train_labels, inputs=embed,
                                     num_sampled=NUM_SAMPLED, num_classes=vocabulary_size))
optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keepdims=True))
normalized_embeddings = embeddings / norm
similarity = tf.matmul(normalized_embeddings, normalized_embeddings, transpose_b=True)

with tf.Session() as session:
    tf.global_variables_initializer().run()
    average_loss = 0.0
    for step in range(args.steps):
        batch_inputs, batch_labels = generate_batch(BATCH, 2, 1)
        _, loss_val = session.run([optimizer, loss], {train_inputs: batch_inputs,
                                                      train_labels: batch_labels})
        average_loss += loss_val
    sim = similarity.eval()
kind_of = {dictionary[w]: kind for kind, ws in KINDS.items() for w in ws}
hits = 0
for word_id, kind in kind_of.items():
    nearest = [k for k in (-sim[word_id]).argsort() if k != word_id][0]
    hits += kind_of.get(nearest) == kind
corpus_common.report(args, average_loss / max(args.steps, 1), hits / len(kind_of), begin,
                     vocabulary=vocabulary_size, embed=embed.name)
