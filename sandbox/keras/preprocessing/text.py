"""keras.preprocessing.text -- mirrors TensorFlow 1.15's python/keras/preprocessing/text.py
(keras_preprocessing's text module): texts to words, words to ids.

    tokenizer = Tokenizer(num_words=100, oov_token='<unk>')
    tokenizer.fit_on_texts(['the cat sat', 'the dog'])   # word_index: {'<unk>': 1, 'the': 2, ...}
    tokenizer.texts_to_sequences(['the cat ran'])        # [[2, 3, 1]]
    tokenizer.texts_to_matrix(texts, mode='tfidf')       # 'binary', 'count', 'freq', 'tfidf'

Ids count from 1 (0 is left for padding) in the order of the words' counts, most frequent
first (ties: first seen first); num_words keeps the ids below num_words when texts are
turned into sequences or matrices, the word_index itself keeps every word.
"""
import collections
import hashlib
import json
import warnings

import numpy as np

__all__ = ["text_to_word_sequence", "one_hot", "hashing_trick", "Tokenizer",
           "tokenizer_from_json"]

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(text, filters=_FILTERS, lower=True, split=" "):
    """The words of `text`: lower-cased, the `filters` characters turned into `split`, split,
    empty words dropped."""
    if lower:
        text = text.lower()
    text = text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in text.split(split) if word]


def one_hot(text, n, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    """Each word as an id in [1, n) by Python's hash() -- which changes from one Python process
    to the next (PYTHONHASHSEED) unless hash_function='md5' is given to hashing_trick."""
    return hashing_trick(text, n, hash_function=hash, filters=filters, lower=lower,
                         split=split, analyzer=analyzer)


def _md5(word):
    return int(hashlib.md5(word.encode()).hexdigest(), 16)


def hashing_trick(text, n, hash_function=None, filters=_FILTERS, lower=True, split=" ",
                  analyzer=None):
    """Each word as hash_function(word) % (n - 1) + 1: hash_function is hash (the default),
    'md5' (stable across runs) or any function of a string to an int."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = _md5
    if analyzer is None:
        words = text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    else:
        words = analyzer(text)
    return [hash_function(w) % (n - 1) + 1 for w in words]


class Tokenizer:
    """Counts the words of texts (fit_on_texts) and turns texts into id sequences or
    (len(texts), num_words) matrices."""

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ",
                 char_level=False, oov_token=None, analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed "
                          "`num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs = collections.defaultdict(int)
        self.word_index, self.index_word = {}, {}
        self.analyzer = analyzer

    def _words(self, text):
        """A text as the tokenizer sees it: its characters (char_level), the list itself (a
        text given as a list of words), or text_to_word_sequence / the analyzer's words."""
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower,
                                     split=self.split)

    def fit_on_texts(self, texts):
        """Counts the words (word_counts, word_docs) and numbers them: word_index."""
        for text in texts:
            self.document_count += 1
            words = self._words(text)
            for w in words:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(words):
                self.word_docs[w] += 1
        counts = sorted(self.word_counts.items(), key=lambda wc: wc[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + \
            [w for w, _ in counts]
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {i: w for w, i in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences):
        """Counts documents per id (index_docs), for tfidf on sequences."""
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts):
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        """Each text as its word ids; a word not known, or of id >= num_words, becomes the
        oov_token's id, or is dropped when there is no oov_token."""
        oov_index = self.word_index.get(self.oov_token)
        for text in texts:
            ids = []
            for w in self._words(text):
                i = self.word_index.get(w)
                if i is not None and not (self.num_words and i >= self.num_words):
                    ids.append(i)
                elif oov_index is not None:
                    ids.append(oov_index)
            yield ids

    def sequences_to_texts(self, sequences):
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        """Each id sequence as its words joined by spaces (unknown ids: the oov_token)."""
        oov_index = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for i in seq:
                word = self.index_word.get(i)
                if word is not None and not (self.num_words and i >= self.num_words):
                    words.append(word)
                elif oov_index is not None:
                    words.append(self.index_word[oov_index])
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """(len(sequences), num_words) float64: per id, 1 ('binary'), its count ('count'),
        count / len ('freq') or (1 + log count) * log(1 + docs / (1 + docs with it))
        ('tfidf')."""
        if self.num_words:
            num_words = self.num_words
        elif self.word_index:
            num_words = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text "
                             "data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in ("binary", "count", "freq", "tfidf"):
            raise ValueError("Unknown vectorization mode:", mode)
        x = np.zeros((len(sequences), num_words))
        for row, seq in enumerate(sequences):
            if not seq:
                continue
            counts = collections.Counter(j for j in seq if j < num_words)
            for j, c in counts.items():
                if mode == "count":
                    x[row, j] = c
                elif mode == "freq":
                    x[row, j] = c / len(seq)
                elif mode == "binary":
                    x[row, j] = 1
                else:
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    x[row, j] = (1 + np.log(c)) * idf
        return x

    def get_config(self):
        """TF's keys; the dictionaries as JSON strings."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower,
                "split": self.split, "char_level": self.char_level,
                "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts),
                "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs),
                "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """{'class_name': 'Tokenizer', 'config': get_config()} as JSON: tokenizer_from_json
        reads it back."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


def tokenizer_from_json(json_string):
    """The Tokenizer that to_json wrote."""
    config = json.loads(json_string).get("config")
    word_counts = json.loads(config.pop("word_counts"))
    word_docs = json.loads(config.pop("word_docs"))
    index_docs = {int(k): v for k, v in json.loads(config.pop("index_docs")).items()}
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts, tokenizer.word_docs = word_counts, word_docs
    tokenizer.index_docs, tokenizer.index_word = index_docs, index_word
    tokenizer.word_index = word_index
    return tokenizer
