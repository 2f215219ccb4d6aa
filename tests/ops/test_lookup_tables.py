"""Lookup tables: tf.lookup and tf.contrib.lookup (sandbox/ops/lookup_ops.py,
vocabulary_lookup_ops.py, mutable_lookup_ops.py, lookup_table_ops.py). The expected values,
op names and messages are TF 2.15.1's (tf.compat.v1, graph mode) for the same programs,
hard-coded; the OOV buckets are TF's Fingerprint64 / SipHash ones."""
import re

import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port

WORDS = ["brain", "salad", "emerson", "lake", "palmer", "surgery", ""]


@pytest.fixture
def vocab(tmp_path):
    (tmp_path / "vocab.txt").write_text("brain\nsalad\nsurgery\n")
    (tmp_path / "cols.txt").write_text("a\t1\t10\nb\t2\t20\n")
    return tmp_path


def _error(sess, fetch, feed=None):
    with pytest.raises(tf.errors.OpError) as info:
        sess.run(fetch, feed)
    # TF's message, less what the sandbox adds: which table, what to do
    return type(info.value).__name__, re.sub(r" \(table '[^']*'\)$", "", info.value.message)


def test_static_hash_table_names_values_and_the_uninitialized_error():
    g = tf.Graph()
    with g.as_default():
        init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [7, 8, 9],
                                                   value_dtype=tf.int64)
        table = tf.lookup.StaticHashTable(init, -1)
        out = table.lookup(tf.constant(["a", "f", "c"]))
        size = table.size()
        keys, values = table.export()
        sparse = table.lookup(tf.SparseTensor([[0, 0], [1, 2]], ["b", "zz"], [2, 3]))
        # TF 2.15.1's graph: the same op names and types
        assert (table.resource_handle.op.type, table.resource_handle.dtype, table.name) == \
            ("HashTableV2", tf.resource, "hash_table")
        assert [(op.name, op.type) for op in tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)] \
            == [("key_value_init/LookupTableImportV2", "LookupTableImportV2")]
        assert table.initializer.name == "key_value_init/LookupTableImportV2"
        assert (out.op.name, out.op.type, out.shape.as_list()) == \
            ("hash_table_Lookup/LookupTableFindV2", "LookupTableFindV2", [3])
        assert [t.name for t in out.op.inputs] == ["hash_table:0", "Const_1:0", "Const:0"]
        assert (size.op.name, size.dtype, keys.op.name) == (
            "hash_table_Size/LookupTableSizeV2", tf.int64, "hash_table_Export/LookupTableExportV2")
        with tf.Session() as sess:
            assert sess.run(size) == 0                         # TF: 0 before initialization
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match=r"Table not initialized\.(.|\n)*"
                                     r"node hash_table_Lookup/LookupTableFindV2"):
                sess.run(out)
            sess.run(tf.tables_initializer())
            assert sess.run(out).tolist() == [7, -1, 9]
            assert sess.run(size) == 3
            got = sess.run(sparse)
            assert got.values.tolist() == [8, -1] and got.dense_shape.tolist() == [2, 3]
            k, v = sess.run([keys, values])
            assert sorted(zip(k.tolist(), v.tolist())) == [(b"a", 7), (b"b", 8), (b"c", 9)]
            sess.run(tf.tables_initializer())                  # a second time: ignored, as TF
        with pytest.raises(TypeError, match="Keys must be dtype <dtype: 'string'>, got "
                                            "<dtype: 'int32'>"):
            table.lookup(tf.constant([1]))
        with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(\) are not compatible"):
            tf.lookup.StaticHashTable(init, [1, 2])
        # tf.contrib.lookup.HashTable: int32 keys, float values, .init
        ht = tf.contrib.lookup.HashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [1.5, 2.5]),
                                         0.0)
        assert (ht.init.name, ht.key_dtype, ht.value_dtype) == \
            ("key_value_init_1/LookupTableImportV2", tf.int32, tf.float32)
        with tf.Session() as sess:
            sess.run(ht.init)
            np.testing.assert_array_equal(sess.run(ht.lookup(tf.constant([[1, 3], [2, 2]]))),
                                          [[1.5, 0.0], [2.5, 2.5]])


def test_vocabulary_tables_put_oov_keys_in_tfs_buckets(vocab):
    L = tf.contrib.lookup
    words = tf.constant(WORDS)
    vt = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
        str(vocab / "vocab.txt"), tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
        tf.lookup.TextFileIndex.LINE_NUMBER), 3)
    a = vt.lookup(words)
    it = L.index_table_from_tensor(tf.constant([10, 20, 30], tf.int64), num_oov_buckets=2,
                                   dtype=tf.int64)
    b = it.lookup(tf.constant([20, 5, 30, 7, 123456789], tf.int64))
    strong = L.index_table_from_tensor(["a", "b"], num_oov_buckets=4,
                                       hasher_spec=L.StrongHashSpec((1, 2)))
    c = strong.lookup(tf.constant(["a", "x", "y", "zzz"]))
    i32 = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([3, 4], tf.int64), tf.constant([0, 1], tf.int64)), 5,
        lookup_key_dtype=tf.int32)
    d = i32.lookup(tf.constant([4, 9, 3, 11]))
    sparse = vt.lookup(tf.SparseTensor([[0], [3]], ["salad", "lake"], [5]))
    to_id = L.string_to_index(tf.constant(["salad", "x"]), ["brain", "salad"])
    to_word = L.index_to_string(tf.constant([1, 5], tf.int64), ["brain", "salad"])
    # TF 2.15.1's names: a select of the table's id and the hash bucket after the vocabulary
    assert (a.op.name, vt.name, vt.size().op.name) == \
        ("hash_table_Lookup/SelectV2", "hash_table", "hash_table_Size/add")
    ops = {op.name: op.type for op in tf.get_default_graph().get_operations()}
    assert ops["hash_table_Lookup/hash_bucket"] == "StringToHashBucketFast"
    assert ops["hash_table_Lookup_2/hash_bucket"] == "StringToHashBucketStrong"
    assert ops["string_to_index/hash_table/hash_table"] == "HashTableV2"
    assert ops["string_to_index/hash_table/table_init/LookupTableImportV2"] == \
        "LookupTableImportV2"
    assert vt.resource_handle.op.get_attr("shared_name") == \
        f"hash_table_{vocab / 'vocab.txt'}_-2_-1"
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        assert sess.run(a).tolist() == [0, 1, 4, 4, 3, 2, 5]          # TF 2.15.1's
        assert sess.run(b).tolist() == [1, 4, 2, 3, 3]
        assert sess.run(c).tolist() == [0, 4, 3, 5]
        assert sess.run(d).tolist() == [1, 2, 0, 6]
        assert sess.run(sparse).values.tolist() == [1, 4]
        assert sess.run(to_id).tolist() == [1, -1]
        assert sess.run(to_word).tolist() == [b"salad", b"UNK"]
        assert sess.run([vt.size(), it.size(), strong.size()]) == [6, 5, 6]


def test_text_file_tables_and_their_errors(vocab):
    L = tf.contrib.lookup
    path = str(vocab / "vocab.txt")
    words = tf.constant(WORDS)
    ft = L.index_table_from_file(path, default_value=-5)
    f2 = L.index_table_from_file(path, num_oov_buckets=1, vocab_size=2)
    rt = L.index_to_string_table_from_tensor(["x", "y", "z"])
    rf = L.index_to_string_table_from_file(path, default_value="??")
    cols = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(vocab / "cols.txt"), tf.string, 0, tf.int64, 2), -1)
    assert [op.name for op in tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS)][:3] == [
        "string_to_index/hash_table/table_init/InitializeTableFromTextFileV2",
        "string_to_index_1/hash_table/table_init/InitializeTableFromTextFileV2",
        "index_to_string/table_init/LookupTableImportV2"]
    fetches = [ft.lookup(words), f2.lookup(words), rt.lookup(tf.constant([2, 0, 9], tf.int64)),
               rf.lookup(tf.constant([[1], [5]], tf.int64)),
               cols.lookup(tf.constant(["b", "a", "q"]))]

    def table(filename, key_dtype, key_index, value_dtype, value_index, **kw):
        return tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            str(vocab / filename), key_dtype, key_index, value_dtype, value_index, **kw), -1)

    too_big = table("vocab.txt", tf.string, -2, tf.int64, -1, vocab_size=5)
    missing = table("nofile.txt", tf.string, -2, tf.int64, -1)
    few_columns = table("cols.txt", tf.string, 0, tf.int64, 5)
    not_int = table("cols.txt", tf.int64, 0, tf.int64, 1)
    dup = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
    p = tf.placeholder(tf.int64, [None])
    fed = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], p), -1)
    with tf.Session() as sess:
        sess.run([ft.initializer, f2.initializer, rt.initializer, rf.initializer,
                  cols.initializer])
        got = sess.run(fetches)
        assert got[0].tolist() == [0, 1, -5, -5, -5, 2, -5]           # TF 2.15.1's
        assert got[1].tolist() == [0, 1, 2, 2, 2, 2, 2]
        assert got[2].tolist() == [b"z", b"x", b"UNK"]
        assert got[3].tolist() == [[b"salad"], [b"??"]]
        assert got[4].tolist() == [20, 10, -1]
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match=r"Table not initialized(.|\n)*node hash_table_1_Lookup/"):
            sess.run(too_big.lookup(tf.constant(["x"])))
        assert _error(sess, too_big.initializer) == (
            "InvalidArgumentError", f"Invalid vocab_size in {vocab / 'vocab.txt'}: expected 5 "
            "but got 3")
        assert _error(sess, missing.initializer)[0] == "NotFoundError"
        assert _error(sess, few_columns.initializer) == (
            "InvalidArgumentError", f"Invalid number of columns in {vocab / 'cols.txt'} line 0 "
            "(a\t1\t10) : expected at least 6 got 3")
        assert _error(sess, not_int.initializer) == (
            "InvalidArgumentError", "Field a in line 0 is not a valid int64.")
        assert _error(sess, dup.initializer) == (
            "FailedPreconditionError", "HashTable has different value for same key. Key a has "
            "1 and trying to add value 2")
        sess.run(fed.initializer, {p: [1, 2]})
        assert _error(sess, fed.initializer, {p: [1, 3, 4]}) == (
            "InvalidArgumentError", "Expected shape [2] for value, got [3]")


def test_mutable_and_dense_hash_tables():
    L = tf.contrib.lookup
    m = L.MutableHashTable(tf.string, tf.int64, -1)
    insert = m.insert(["a", "b", "c"], [1, 2, 3])
    found = m.lookup(["b", "zz"])
    remove = m.remove(tf.constant(["a"]))
    keys, values = m.export()
    emb = L.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0], name="emb")
    emb_insert = emb.insert(tf.constant([5, 6], tf.int64), [[1.0, 2.0], [3.0, 4.0]])
    emb_found = emb.lookup(tf.constant([[6], [7]], tf.int64))
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0,
                                              deleted_key=-1)
    d_insert = d.insert(tf.constant([1, 2, 3], tf.int64), tf.constant([10, 20, 30], tf.int64))
    d_found = d.lookup(tf.constant([2, 3, 4], tf.int64))
    d_erase = d.erase(tf.constant([2], tf.int64))
    # TF 2.15.1's op names, types and static shapes
    assert (insert.name, m.resource_handle.op.type) == (
        "MutableHashTable_lookup_table_insert/LookupTableInsertV2", "MutableHashTableV2")
    assert (found.op.name, found.shape.as_list()) == (
        "MutableHashTable_lookup_table_find/LookupTableFindV2", [2])
    assert (remove.name, remove.type) == (
        "MutableHashTable_lookup_table_remove/LookupTableRemoveV2", "LookupTableRemoveV2")
    assert (emb.resource_handle.op.type, emb_found.shape.as_list()) == \
        ("MutableHashTableOfTensorsV2", [2, 1, 2])
    assert (d.resource_handle.op.type, d.name) == ("MutableDenseHashTableV2",
                                                   "MutableDenseHashTable")
    assert [t.name for t in d.resource_handle.op.inputs] == ["empty_key:0", "deleted_key:0"]
    with tf.Session() as sess:
        assert sess.run(found).tolist() == [-1, -1] and sess.run(m.size()) == 0
        sess.run(insert)
        assert sess.run(found).tolist() == [2, -1] and sess.run(m.size()) == 3
        sess.run(remove)
        k, v = sess.run([keys, values])
        assert sorted(zip(k.tolist(), v.tolist())) == [(b"b", 2), (b"c", 3)]
        assert _error(sess, m.insert(["q"], tf.constant([1, 2], tf.int64))) == (
            "InvalidArgumentError", "Expected shape [1] for value, got [2]")
        sess.run(emb_insert)
        assert sess.run(emb_found).tolist() == [[[3.0, 4.0]], [[0.0, 0.0]]]
        assert _error(sess, emb.insert(tf.constant([1], tf.int64), [[1.0, 2.0, 3.0]])) == (
            "InvalidArgumentError", "Expected shape [1,2] for value, got [1,3]")
        sess.run(d_insert)
        assert sess.run(d_found).tolist() == [20, 30, -1]
        sess.run(d_erase)
        assert sess.run(d_found).tolist() == [-1, 30, -1] and sess.run(d.size()) == 2
        assert _error(sess, d.insert(tf.constant([0], tf.int64), tf.constant([1], tf.int64))) \
            == ("InvalidArgumentError", "Using the empty_key as a table key is not allowed")
        assert _error(sess, d.lookup(tf.constant([-1], tf.int64))) == (
            "InvalidArgumentError", "Using the deleted_key as a table key is not allowed")
    with pytest.raises(TypeError, match="Keys must be dtype <dtype: 'string'>"):
        m.remove(tf.constant([1]))


def test_a_vocabulary_on_the_ps_of_a_cluster_serves_the_worker():
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = worker = None
    try:
        ps = tf.train.Server(cluster, job_name="ps", task_index=0)
        worker = tf.train.Server(cluster, job_name="worker", task_index=0)
        with tf.device("/job:ps/task:0"):
            table = tf.contrib.lookup.index_table_from_tensor(["brain", "salad", "surgery"],
                                                              num_oov_buckets=3)
            counts = tf.contrib.lookup.MutableHashTable(tf.string, tf.int64, 0)
        with tf.device("/job:worker/task:0"):
            words = tf.placeholder(tf.string, [None])    # fed bytes: see the report
            ids = table.lookup(words)
            count = counts.insert(words, tf.ones_like(ids))
        config = tf.ConfigProto(operation_timeout_in_ms=5000)
        with tf.Session(worker.target, config=config) as sess:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="Table not initialized"):
                sess.run(ids, {words: [b"brain"]})
            sess.run(tf.tables_initializer())
            assert sess.run(ids, {words: [w.encode() for w in WORDS]}).tolist() == \
                [0, 1, 4, 4, 3, 2, 5]                                      # TF 2.15.1's
            sess.run(count, {words: [b"lake", b"brain"]})
            assert sess.run(counts.size()) == 2
        # the tables live on the ps; the worker keeps none of them
        ps_names = ps._impl.worker.resources.names()
        assert "string_to_index/hash_table/hash_table" in ps_names
        assert "MutableHashTable" in ps_names
        assert not [n for n in worker._impl.worker.resources.names() if "able" in n]
    finally:
        for server in (worker, ps):
            if server is not None:
                server.stop()
