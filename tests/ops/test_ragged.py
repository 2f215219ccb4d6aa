"""Tests for sandbox/ops/ragged/: tf.RaggedTensor, tf.RaggedTensorSpec and tf.ragged -- every
value, dtype, static shape and error class here was measured with TF 2.15.1's
tensorflow.compat.v1 in graph mode (tf.disable_eager_execution()) running the same program."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors

C = tf.ragged.constant


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def rows(fetches):
    """The fetched RaggedTensorValue(s) as lists."""
    got = run(fetches)
    return [g.to_list() for g in got] if isinstance(got, list) else got.to_list()


def fails(build, error, match):
    """build() or running what it builds raises `error` (TF checks some of these while the
    graph is built, some when it runs)."""
    with pytest.raises(error, match=match):
        run(build())


# -- factories -----------------------------------------------------------------------------

def test_the_from_factories_make_the_same_rows():
    R = tf.RaggedTensor
    rts = [R.from_row_splits([1, 2, 3, 4, 5], [0, 2, 2, 5]),
           R.from_row_lengths([1, 2, 3, 4, 5], [2, 0, 3]),
           R.from_value_rowids([1, 2, 3, 4, 5], [0, 0, 2, 2, 2], nrows=3),
           R.from_row_starts([1, 2, 3, 4, 5], [0, 2, 2]),
           R.from_row_limits([1, 2, 3, 4, 5], [2, 2, 5])]
    assert rows(rts) == [[[1, 2], [], [3, 4, 5]]] * 5
    assert [str(rt.shape) for rt in rts[:3]] == ["(3, ?)"] * 3
    assert rts[0].ragged_rank == 1 and rts[0].dtype == tf.int32
    assert rts[0].row_splits.dtype == tf.int64                 # a Python partition: int64
    assert R.from_row_lengths([1, 2, 3], tf.constant([1, 2])).row_splits.dtype == tf.int32
    assert rows(R.from_value_rowids([1, 2, 3], [0, 2, 2], nrows=4)) == [[1], [], [2, 3], []]
    assert rows(R.from_value_rowids([1, 2, 3], [0, 2, 2])) == [[1], [], [2, 3]]
    nested = [R.from_nested_row_splits([1, 2, 3, 4], [[0, 2, 3], [0, 1, 1, 4]]),
              R.from_nested_row_lengths([1, 2, 3, 4], [[2, 1], [1, 0, 3]]),
              R.from_nested_value_rowids([1, 2, 3, 4], [[0, 0, 1], [0, 2, 2, 2]])]
    assert rows(nested) == [[[[1], []], [[2, 3, 4]]]] * 3
    assert nested[0].ragged_rank == 2 and str(nested[0].shape) == "(2, ?, ?)"
    with pytest.raises(ValueError, match="RaggedTensor constructor is private"):
        R(tf.constant([1]), tf.constant([0, 1], tf.int64))


def test_validate_checks_raise_tfs_invalid_argument_error():
    R = tf.RaggedTensor
    msg = "Arguments to from_row_splits do not form a valid RaggedTensor:"
    fails(lambda: R.from_row_splits([1, 2, 3], [1, 2, 3]), errors.InvalidArgumentError,
          msg + "zero")
    fails(lambda: R.from_row_splits([1, 2, 3], [0, 2, 1, 3]), errors.InvalidArgumentError,
          msg + "monotonic")
    fails(lambda: R.from_row_splits([1, 2, 3], [0, 2, 4]), errors.InvalidArgumentError,
          "Arguments to _from_row_partition do not form a valid RaggedTensor")
    fails(lambda: R.from_row_lengths([1, 2, 3], [4, -1]), errors.InvalidArgumentError,
          "Arguments to from_row_lengths do not form a valid RowPartition")
    fails(lambda: R.from_row_lengths([1, 2, 3], [1, 1]), errors.InvalidArgumentError,
          "_from_row_partition")
    fails(lambda: R.from_value_rowids([1, 2, 3], [0, 2, 1]), errors.InvalidArgumentError,
          "Arguments to from_value_rowids do not form a valid RowPartition")
    fails(lambda: R.from_value_rowids(
        [1, 2, 3], [0, 1, 1], nrows=tf.placeholder_with_default(tf.constant(1, tf.int64), [])),
        errors.InvalidArgumentError, "from_value_rowids")
    fails(lambda: R.from_row_starts([1, 2, 3], [1, 2]), errors.InvalidArgumentError,
          "Arguments to from_row_starts do not form a valid RaggedTensor")
    fails(lambda: R.from_row_limits([1, 2, 3], [2, 1]), errors.InvalidArgumentError,
          "Arguments to from_row_limits do not form a valid RaggedTensor")
    # validate=False builds no checks: the rows are what the splits say
    assert rows(R.from_row_splits([1, 2, 3], [0, 2, 4], validate=False)) == [[1, 2], [3]]
    with pytest.raises(ValueError, match=r"row_splits tensor may not be empty\."):
        R.from_row_splits([1, 2, 3], [])
    with pytest.raises(ValueError, match=r"Expected nrows >= value_rowids\[-1\] \+ 1; got "
                                         r"nrows=1, value_rowids\[-1\]=1"):
        R.from_value_rowids([1, 2, 3], [0, 1, 1], nrows=1)
    with pytest.raises(ValueError, match="row_splits must have dtype int32 or int64"):
        R.from_row_splits([1, 2, 3], [0., 3.])
    with pytest.raises(TypeError, match="Argument `validate` must have type bool. Received 1."):
        R.from_row_splits([1, 2, 3], [0, 3], validate=1)
    with pytest.raises(ValueError, match="must have same dtype as Argument `values`"):
        R.from_row_splits(C([[1], [2]], row_splits_dtype=tf.int32), tf.constant([0, 2],
                                                                                  tf.int64))


# -- the Session: fetch and feed ---------------------------------------------------------------

def test_session_run_gives_a_ragged_tensor_value():
    rt = tf.RaggedTensor.from_row_splits([1, 2, 3, 4, 5], [0, 2, 2, 5])
    got = run(rt)
    assert isinstance(got, tf.ragged.RaggedTensorValue)
    assert repr(got) == ("tf.RaggedTensorValue(values=array([1, 2, 3, 4, 5], dtype=int32), "
                         "row_splits=array([0, 2, 2, 5]))")
    assert str(got) == "<tf.RaggedTensorValue [[1, 2], [], [3, 4, 5]]>"
    assert got.shape == (3, None) and got.dtype == np.int32 and got.ragged_rank == 1
    nested = run({"a": [C([[1], []]), tf.constant(1)], "b": rt.row_lengths()})
    assert nested["a"][0].to_list() == [[1], []] and nested["a"][1] == 1
    np.testing.assert_array_equal(nested["b"], [2, 0, 3])
    deep = run(C([[[1], [2, 3]], []]))
    assert deep.to_list() == [[[1], [2, 3]], []] and deep.ragged_rank == 2
    assert [s.tolist() for s in deep.nested_row_splits] == [[0, 2, 2], [0, 1, 3]]
    assert deep.flat_values.tolist() == [1, 2, 3] and deep.shape == (2, None, None)
    inner = run(C([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))
    assert inner.to_list() == [[[1, 2], [3, 4]], [[5, 6]]] and inner.shape == (2, None, 2)


def test_a_ragged_placeholder_is_fed_a_ragged_tensor_value():
    ph = tf.ragged.placeholder(tf.int32, 2, [3])
    assert ph.flat_values.name == "RaggedPlaceholder/flat_values:0"
    assert [s.name for s in ph.nested_row_splits] == ["RaggedPlaceholder/row_splits_0:0",
                                                      "RaggedPlaceholder/row_splits_1:0"]
    assert ph.shape.as_list() == [None, None, None, 3]
    value = tf.ragged.constant_value([[[[1, 2, 3]]], []], ragged_rank=2)
    assert run(ph + 1, {ph: value}).to_list() == [[[[2, 3, 4]]], []]
    assert isinstance(tf.ragged.placeholder(tf.int32, 0, [3]), tf.Tensor)
    flat = tf.ragged.placeholder(tf.float32, 1)
    assert flat.shape.ndims is None                        # TF: <unknown> without value_shape
    got = run(flat * 2, {flat: tf.ragged.constant_value([[1., 2.], [3.]])})
    assert got.to_list() == [[2., 4.], [6.]] and got.values.dtype == np.float32
    # int32 row splits are fed to the int64 placeholders, as TF converts them
    ints = tf.ragged.placeholder(tf.int32, 1)
    got = run(ints, {ints: tf.ragged.constant_value([[1], [2, 3]], row_splits_dtype=np.int32)})
    assert got.to_list() == [[1], [2, 3]] and got.row_splits.dtype == np.int64
    with pytest.raises(TypeError, match="feed a tf.ragged.RaggedTensorValue"):
        run(ints, {ints: [[1], [2, 3]]})
    with pytest.raises(TypeError, match="feed a tf.ragged.RaggedTensorValue"):
        run(ints, {ints: C([[1], [2, 3]])})
    with pytest.raises(ValueError, match="ragged_rank 1 to a RaggedTensor of ragged_rank 2"):
        run(ph, {ph: tf.ragged.constant_value([[1, 2, 3]])})


# -- constants -----------------------------------------------------------------------------

def test_ragged_constant_as_tf():
    assert run(C([[1.5], [2]])).to_list() == [[1.5], [2.0]]
    assert C([[1.5], [2]]).dtype == tf.float32
    assert C([[1], [2]], dtype=tf.float64).dtype == tf.float64
    assert C([[1], [2]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    assert run(C([["a"], ["b", "c"]])).to_list() == [[b"a"], [b"b", b"c"]]
    assert run(C(3)) == 3 and run(C([1, 2])).tolist() == [1, 2]     # not ragged: Tensors
    empty = C([])
    assert isinstance(empty, tf.Tensor) and empty.dtype == tf.float32 and \
        empty.shape.as_list() == [0]
    assert C([[], []]).dtype == tf.float32 and run(C([[], []])).to_list() == [[], []]
    with tf.Graph().as_default():
        rt = C([[[1], [2, 3]], []])
        assert rt.flat_values.name == "RaggedConstant/values:0"
        assert [s.name for s in rt.nested_row_splits] == ["RaggedConstant/Const_1:0",
                                                          "RaggedConstant/Const:0"]
        assert C([[1.]], name="foo").values.name == "foo/values:0"
    with pytest.raises(ValueError, match="all scalar values must have the same nesting depth"):
        C([[1], 2])
    with pytest.raises(ValueError, match=r"incompatible with ragged_rank=1 and "
                                         r"dim\(inner_shape\)=1"):
        C([[1, 2], [3, 4]], ragged_rank=1, inner_shape=(2,))


def test_ragged_constant_value_as_tf():
    v = tf.ragged.constant_value([[1, 2], [3]])
    assert repr(v) == ("tf.RaggedTensorValue(values=array([1, 2, 3]), "
                       "row_splits=array([0, 2, 3]))")
    assert str(v) == "<tf.RaggedTensorValue [[1, 2], [3]]>"
    assert tf.ragged.constant_value([[1, 2], [3]], dtype=tf.float32).values.dtype == np.float32
    assert repr(tf.ragged.constant_value([1, 2])) == "array([1, 2])"
    v = tf.ragged.constant_value([[[1], [2, 3]], []])
    assert v.shape == (2, None, None) and v.ragged_rank == 2 and v.dtype == np.int64
    v = tf.ragged.constant_value([[[1, 2]], []], ragged_rank=1)
    assert v.shape == (2, None, 2) and v.ragged_rank == 1
    with pytest.raises(TypeError, match="row_splits must be a 1D int32 or int64 numpy array"):
        tf.ragged.RaggedTensorValue(np.array([1]), [0, 1])


# -- rows and shapes -------------------------------------------------------------------------

def test_row_partitions_and_bounding_shape():
    rt, deep = C([[1, 2], [], [3]]), C([[[1], [2, 3]], []])
    got = run({"lengths": rt.row_lengths(), "nrows": rt.nrows(), "ids": rt.value_rowids(),
               "starts": rt.row_starts(), "limits": rt.row_limits(),
               "box": rt.bounding_shape(), "box1": rt.bounding_shape(axis=1),
               "box32": rt.bounding_shape(out_type=tf.int32), "deep_box": deep.bounding_shape(),
               "nested_lengths": list(deep.nested_row_lengths()),
               "nested_ids": list(deep.nested_value_rowids()),
               "lengths2": deep.row_lengths(axis=2), "nrows32": rt.nrows(out_type=tf.int32),
               "empty": C([[], []]).bounding_shape(),
               "no_rows": tf.RaggedTensor.from_row_splits(tf.zeros([0]), [0]).bounding_shape(),
               "inner": C([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1).bounding_shape()})
    assert got["lengths"].tolist() == [2, 0, 1] and got["nrows"] == 3
    assert got["ids"].tolist() == [0, 0, 2]
    assert got["starts"].tolist() == [0, 2, 2] and got["limits"].tolist() == [2, 2, 3]
    assert got["box"].tolist() == [3, 2] and got["box"].dtype == np.int64
    assert got["box1"] == 2 and got["box32"].dtype == np.int32
    assert got["deep_box"].tolist() == [2, 2, 2] and got["inner"].tolist() == [2, 2, 2]
    assert [x.tolist() for x in got["nested_lengths"]] == [[2, 0], [1, 2]]
    assert [x.tolist() for x in got["nested_ids"]] == [[0, 0], [0, 1, 1]]
    assert got["lengths2"].to_list() == [[1, 2], []]
    assert got["nrows32"].dtype == np.int32
    assert got["empty"].tolist() == [2, 0] and got["no_rows"].tolist() == [0, 0]
    assert rt.bounding_shape().shape.as_list() == [2]


def test_with_values_and_with_row_splits_dtype():
    rt = C([[1, 2], [], [3]])
    assert rows(rt.with_values(tf.constant([1., 2., 3.]))) == [[1.0, 2.0], [], [3.0]]
    assert rows(C([[[1], [2, 3]], []]).with_flat_values(tf.constant(["a", "b", "c"]))) == \
        [[[b"a"], [b"b", b"c"]], []]
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        rt.with_values(tf.constant([1., 2.]))
    with pytest.raises(ValueError, match="must have rank at least 1"):
        rt.with_values(tf.constant(1.))
    as32 = rt.with_row_splits_dtype(tf.int32)
    assert as32.row_splits.dtype == tf.int32 and rows(as32) == [[1, 2], [], [3]]


# -- conversions -----------------------------------------------------------------------------

def test_to_tensor_as_tf():
    rt = C([[1, 2], [], [3]])
    got = run([rt.to_tensor(), rt.to_tensor(default_value=9), rt.to_tensor(shape=[2, 4]),
               rt.to_tensor(shape=[None, 4]), C([[[1], [2, 3]], []]).to_tensor(),
               C([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1).to_tensor(default_value=[7, 8]),
               C([["a"], []]).to_tensor()])
    assert got[0].tolist() == [[1, 2], [0, 0], [3, 0]]
    assert got[1].tolist() == [[1, 2], [9, 9], [3, 9]]
    assert got[2].tolist() == [[1, 2, 0, 0], [0, 0, 0, 0]]
    assert got[3].tolist() == [[1, 2, 0, 0], [0, 0, 0, 0], [3, 0, 0, 0]]
    assert got[4].tolist() == [[[1, 0], [2, 3]], [[0, 0], [0, 0]]]
    assert got[5].tolist() == [[[1, 2], [7, 8]], [[3, 4], [5, 6]]]
    assert got[6].tolist() == [[b"a"], [b""]]
    assert rt.to_tensor().shape.as_list() == [3, None]
    assert rt.to_tensor(shape=[2, 4]).shape.as_list() == [2, 4]
    assert rt.to_tensor(shape=[None, 4]).shape.as_list() == [3, 4]
    with pytest.raises(ValueError, match=r"default_value.rank = 1  must be less than "
                                         r"rt_input.flat_values.rank = 1"):
        rt.to_tensor(default_value=[1, 2])


def test_to_tensor_and_to_sparse_pass_gradients_to_the_values():
    v = tf.constant([1., 2., 3., 4.])
    default = tf.constant(7.)
    rt = tf.RaggedTensor.from_row_lengths(v, [2, 0, 2])
    dense = rt.to_tensor(default_value=default)
    loss = tf.reduce_sum(dense * tf.constant([[1., 2.], [3., 4.], [5., 6.]]))
    grads = tf.gradients(loss, [v, default])
    sparse_grad = tf.gradients(tf.reduce_sum(rt.to_sparse().values * 3.), v)[0]
    op_grad = tf.gradients(tf.reduce_sum((rt * 2.).flat_values), v)[0]
    got = run(grads + [sparse_grad, op_grad])
    assert got[0].tolist() == [1., 2., 5., 6.] and got[1] == 7.   # the default's two cells
    assert got[2].tolist() == [3.] * 4 and got[3].tolist() == [2.] * 4


def test_to_sparse_and_from_sparse():
    got = run([C([[1, 2], [], [3]]).to_sparse(), C([[[1], [2, 3]], []]).to_sparse(),
               C([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1).to_sparse()])
    assert [got[0].indices.tolist(), got[0].values.tolist(), got[0].dense_shape.tolist()] == \
        [[[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 2]]
    assert got[1].indices.tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 1]]
    assert got[1].dense_shape.tolist() == [2, 2, 2]
    assert got[2].indices.tolist() == [[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0],
                                       [1, 1, 1]]
    sp = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [4, 5])
    assert rows(tf.RaggedTensor.from_sparse(sp)) == [[1, 2], [], [3], []]
    as32 = tf.RaggedTensor.from_sparse(sp, row_splits_dtype=tf.int32)
    assert as32.row_splits.dtype == tf.int32
    fails(lambda: tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 1], [2, 0]], [1, 3],
                                                              [4, 5])),
          errors.InvalidArgumentError, "SparseTensor is not right-ragged")
    with pytest.raises(ValueError, match=r"rank\(st_input\) must be 2\."):
        tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0, 0]], [1], [4, 5, 6]))


def test_from_tensor_as_tf():
    R = tf.RaggedTensor
    x3 = np.array([[[1, 0], [0, 0]], [[2, 3], [4, 0]]])
    cases = {
        "whole": R.from_tensor([[1, 2, 0], [3, 0, 0]]),
        "padding": R.from_tensor([[1, 2, 0], [3, 0, 0], [0, 0, 0], [0, 1, 0]], padding=0),
        "lengths": R.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 3]),
        "long": R.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 4]),
        "rr2": R.from_tensor(np.arange(24).reshape(2, 3, 4), ragged_rank=2),
        "rr2_padding": R.from_tensor(x3, padding=0, ragged_rank=2),
        "vector_padding": R.from_tensor(x3, padding=[0, 0]),
        "nested_lengths": R.from_tensor(x3, lengths=([2, 1], [1, 0, 2]))}
    got = {k: v.to_list() for k, v in run(cases).items()}
    assert got["whole"] == [[1, 2, 0], [3, 0, 0]]
    assert got["padding"] == [[1, 2], [3], [], [0, 1]]
    assert got["lengths"] == got["long"] == [[1], [3, 0, 0]]
    assert got["rr2"] == np.arange(24).reshape(2, 3, 4).tolist()
    assert got["rr2_padding"] == [[[1], []], [[2, 3], [4]]]
    assert got["vector_padding"] == [[[1, 0]], [[2, 3], [4, 0]]]
    assert got["nested_lengths"] == [[[1], []], [[2, 3]]]
    # rows cut from a dense tensor keep their (uniform) length in the static shape, as TF 2
    assert cases["whole"].shape.as_list() == [2, 3]
    assert cases["rr2"].shape.as_list() == [2, 3, 4]
    assert cases["rr2_padding"].shape.as_list() == [2, 2, None]
    assert cases["padding"].shape.as_list() == [4, None]
    assert R.from_tensor([[1, 2]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    with pytest.raises(ValueError, match="Specify argument `lengths` or `padding`, but not "
                                         "both."):
        R.from_tensor([[1, 2, 0]], lengths=[1], padding=0)
    with pytest.raises(ValueError, match="The rank of a RaggedTensor must be greater than 1"):
        R.from_tensor([1, 2])
    with pytest.raises(ValueError, match="Argument `ragged_rank` must be greater than 0"):
        R.from_tensor([[1, 2]], ragged_rank=0)
    with pytest.raises(ValueError, match=r"Shape \(1, 2\) must have rank at least 3"):
        R.from_tensor([[1, 2]], ragged_rank=2)


# -- indexing ---------------------------------------------------------------------------------

def test_getitem_as_tf():
    rt = C([[1, 2, 3], [], [4], [5, 6]])
    deep = C([[[1], [2, 3]], [], [[4, 5, 6]]])
    inner = C([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    got = run({"0": rt[0], "-1": rt[-1], "t": rt[tf.constant(3)], "1:3": rt[1:3],
               "-2:": rt[-2:], "::2": rt[::2], "3:1": rt[3:1], ":,1:": rt[:, 1:],
               ":,:2": rt[:, :2], ":,-1:": rt[:, -1:], "0,1": rt[0, 1], "list": rt[[0, 1]],
               "d0": deep[0], "d01": deep[0, 1], "d1:": deep[1:], "d:,:1": deep[:, :1],
               "d:,:,:1": deep[:, :, :1], "i:,:,1": inner[:, :, 1], "i1,:,1": inner[1, :, 1],
               "i...,1": inner[..., 1], "newaxis": rt[tf.newaxis]})
    as_lists = {k: v.to_list() if hasattr(v, "to_list") else np.asarray(v).tolist()
                for k, v in got.items()}
    assert as_lists == {
        "0": [1, 2, 3], "-1": [5, 6], "t": [5, 6], "1:3": [[], [4]], "-2:": [[4], [5, 6]],
        "::2": [[1, 2, 3], [4]], "3:1": [], ":,1:": [[2, 3], [], [], [6]],
        ":,:2": [[1, 2], [], [4], [5, 6]], ":,-1:": [[3], [], [4], [6]], "0,1": 2, "list": 2,
        "d0": [[1], [2, 3]], "d01": [2, 3], "d1:": [[], [[4, 5, 6]]],
        "d:,:1": [[[1]], [], [[4, 5, 6]]], "d:,:,:1": [[[1], [2]], [], [[4]]],
        "i:,:,1": [[2], [4, 6]], "i1,:,1": [4, 6], "i...,1": [[2], [4, 6]],
        "newaxis": [[[1, 2, 3], [], [4], [5, 6]]]}
    assert rt[1:3].shape.as_list() == [2, None] and rt[tf.newaxis].shape.as_list() == \
        [1, 4, None]
    with pytest.raises(ValueError, match=r"Cannot index into an inner ragged dimension\."):
        rt[:, 0]
    with pytest.raises(ValueError, match="slice index 7 of dimension 0 out of bounds"):
        rt[7]
    with pytest.raises(TypeError, match=r"Only integers, slices \(`:`\), ellipsis"):
        rt[1.0]
    # (the sandbox's: iterating gives the rows when their number is known, as for a Tensor;
    # TF's graph mode runs past the last row into a strided-slice error)
    assert [r.tolist() for r in run(list(C([[1, 2], [3]])))] == [[1, 2], [3]]
    with pytest.raises(TypeError, match="not iterable"):
        list(tf.ragged.placeholder(tf.int32, 1))


# -- operators --------------------------------------------------------------------------------

def test_operators_work_on_the_values_and_keep_the_rows():
    rt = C([[1, 2, 3], [], [4], [5, 6]])
    two = C([[1, 2], [3]])
    got = run({"+1": rt + 1, "1+": 1 + rt, "-rt": rt - rt, "/2": rt / 2, "//2": rt // 2,
               "%2": rt % 2, "**2": rt ** 2, "neg": -rt, "abs": abs(-rt), "<3": rt < 3,
               ">=": rt >= rt, "&": C([[True], [False, True]]) & C([[True], [True, False]]),
               "~": ~C([[True], [False, True]]), "12/": 12 / C([[1., 2.], [3.]]),
               "t+": tf.constant(1) + rt, "rows": two + tf.constant([[10], [20]]),
               "one": two + tf.constant([10]),
               "full": C([[1, 2], [3, 4]]) + tf.constant([[10, 20], [30, 40]]),
               "inner": C([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1) + tf.constant([10, 20]),
               "per_row": C([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1) +
               tf.constant([[[10, 20]], [[30, 40]]])})
    as_lists = {k: v.to_list() for k, v in got.items()}
    assert as_lists == {
        "+1": [[2, 3, 4], [], [5], [6, 7]], "1+": [[2, 3, 4], [], [5], [6, 7]],
        "-rt": [[0, 0, 0], [], [0], [0, 0]], "/2": [[0.5, 1.0, 1.5], [], [2.0], [2.5, 3.0]],
        "//2": [[0, 1, 1], [], [2], [2, 3]], "%2": [[1, 0, 1], [], [0], [1, 0]],
        "**2": [[1, 4, 9], [], [16], [25, 36]], "neg": [[-1, -2, -3], [], [-4], [-5, -6]],
        "abs": [[1, 2, 3], [], [4], [5, 6]], "<3": [[True, True, False], [], [False],
                                                   [False, False]],
        ">=": [[True, True, True], [], [True], [True, True]], "&": [[True], [False, False]],
        "~": [[False], [True, False]], "12/": [[12.0, 6.0], [4.0]],
        "t+": [[2, 3, 4], [], [5], [6, 7]], "rows": [[11, 12], [23]], "one": [[11, 12], [13]],
        "full": [[11, 22], [33, 44]], "inner": [[[11, 22]], [[13, 24], [15, 26]]],
        "per_row": [[[11, 22]], [[33, 44], [35, 46]]]}
    assert got["/2"].values.dtype == np.float64 and got["12/"].values.dtype == np.float32
    assert (rt + 1).shape.as_list() == [4, None]


def test_operator_errors():
    two = C([[1, 2], [3]])
    with pytest.raises(TypeError, match="Input 'y' of 'Mul' Op has type float32 that does not "
                                        "match type int32 of argument 'x'"):
        two * 2.5
    with pytest.raises(ValueError, match=r"cannot broadcast a Tensor of shape \(2,\)"):
        two + tf.constant([10, 20])              # TF: every row would need 2 values
    fails(lambda: two + C([[1], [2, 3]]), errors.InvalidArgumentError,
          "Inputs must have identical ragged splits")
    fails(lambda: two + tf.constant([[10, 20], [30, 40]]), errors.InvalidArgumentError,
          "only when every row has n values")
    with pytest.raises(ValueError, match="Inputs must have identical ragged splits"):
        two + C([[1], [2], [3]])
    with pytest.raises(ValueError, match="of the same ragged_rank only"):
        two + C([[[1, 2]], [[3]]])
    with pytest.raises(ValueError, match="Input RaggedTensors have mismatched row_splits "
                                         "dtypes; use RaggedTensor.with_row_splits_dtype"):
        two + C([[1, 2], [3]], row_splits_dtype=tf.int32)


def test_tensor_ops_refuse_a_ragged_tensor_and_name_the_way():
    rt = C([[1, 2], [3], []])
    for call in (lambda: tf.reduce_sum(rt, axis=1), lambda: tf.convert_to_tensor(rt),
                 lambda: tf.add(rt, 1), lambda: tf.matmul(rt, rt)):
        with pytest.raises(TypeError, match=r"Failed to convert elements of tf.RaggedTensor"
                                            r".*unsorted_segment_sum\(rt.values, "
                                            r"rt.value_rowids\(\), rt.nrows\(\)\)"):
            call()
    # ... and the way gives what TF's ragged reduce_sum(rt, axis=1) gives: [3, 3, 0]
    sums = tf.math.unsorted_segment_sum(rt.values, rt.value_rowids(), rt.nrows())
    assert run(sums).tolist() == [3, 3, 0]
    assert run(tf.reduce_sum(rt.flat_values)) == 6


# -- tf.ragged -----------------------------------------------------------------------------------

def test_ragged_range():
    got = run([tf.ragged.range([3, 5, 2]), tf.ragged.range([0, 5, 8], [3, 3, 12], 2),
               tf.ragged.range(3, [0, 5, -2], -1), tf.ragged.range([0.5, 1.], 2.),
               tf.ragged.range(3), tf.ragged.range([3, 1], row_splits_dtype=tf.int32),
               tf.ragged.range([3, 1], dtype=tf.int64)])
    assert [g.to_list() for g in got] == [
        [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]], [[0, 2], [], [8, 10]],
        [[3, 2, 1], [], [3, 2, 1, 0, -1]], [[0.5, 1.5], [1.0]], [[0, 1, 2]],
        [[0, 1, 2], [0]], [[0, 1, 2], [0]]]
    assert got[3].values.dtype == np.float32 and got[5].row_splits.dtype == np.int32
    assert got[6].values.dtype == np.int64
    assert tf.ragged.range([3, 5, 2]).shape.as_list() == [3, None]
    fails(lambda: tf.ragged.range([3], 5, 0), errors.InvalidArgumentError,
          r"Requires delta != 0")
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
        tf.ragged.range([3, 1], [4, 5, 6])


def test_boolean_mask():
    got = run([
        tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True],
                                                        [False, False, True]]),
        tf.ragged.boolean_mask(C([[1, 2, 3], [4], []]), C([[True, False, True], [False], []])),
        tf.ragged.boolean_mask(C([[1, 2, 3], [4], []]), [True, False, True]),
        tf.ragged.boolean_mask(C([[[1], [2, 3]], [[4]]]), C([[[True], [False, True]],
                                                           [[True]]])),
        tf.ragged.boolean_mask(np.arange(12).reshape(2, 3, 2), [[True, False, True],
                                                                [False, False, True]]),
        tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [True, False])])
    assert [g.to_list() if hasattr(g, "to_list") else g.tolist() for g in got] == [
        [[1, 3], [6]], [[1, 3], [], []], [[1, 2, 3], []], [[[1], [3]], [[4]]],
        [[[0, 1], [4, 5]], [[10, 11]]], [[1, 2, 3]]]
    with pytest.raises(TypeError, match="Expected bool, but got 1 of type 'int'."):
        tf.ragged.boolean_mask([1, 2], [1, 0])
    with pytest.raises(ValueError, match="mask cannot be scalar."):
        tf.ragged.boolean_mask([1, 2], True)


def test_stack():
    t1, t2 = C([[1, 2], [3]]), C([[4], [5, 6]])
    got = run([tf.ragged.stack([t1, C([[4]])]), tf.ragged.stack([t1, t2], axis=1),
               tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4])]),
               tf.ragged.stack([tf.constant([[1, 2]]), C([[3], [4, 5]])]),
               tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]),
               tf.ragged.stack([t1]),
               tf.ragged.stack([t1, C([[4, 7], [5]])], axis=2)])
    assert [g.to_list() for g in got] == [
        [[[1, 2], [3]], [[4]]], [[[1, 2], [4]], [[3], [5, 6]]], [[1, 2], [3, 4]],
        [[[1, 2]], [[3], [4, 5]]], [[1, 2], [3]], [[[1, 2], [3]]], [[[1, 4], [2, 7]], [[3, 5]]]]
    assert got[2].row_splits.dtype == np.int32        # TF: stacked vectors' lengths are int32
    fails(lambda: tf.ragged.stack([t1, t2], axis=-1), errors.InvalidArgumentError,
          "Inputs must have identical ragged splits")


def test_map_flat_values():
    rt = C([[1, 2], [3]])
    got = run([tf.ragged.map_flat_values(tf.ones_like, rt),
               tf.ragged.map_flat_values(tf.add, rt, C([[10, 20], [30]])),
               tf.ragged.map_flat_values(tf.multiply, x=rt, y=3),
               tf.ragged.map_flat_values(tf.add, rt, [4, 5, 6])])
    assert [g.to_list() for g in got] == [[[1, 1], [1]], [[11, 22], [33]], [[3, 6], [9]],
                                          [[5, 7], [9]]]
    assert run(tf.ragged.map_flat_values(tf.add, 1, 2)) == 3
    fails(lambda: tf.ragged.map_flat_values(tf.add, rt, C([[1], [2, 3]])),
          errors.InvalidArgumentError, "Inputs must have identical ragged splits")
    with pytest.raises(ValueError, match=r"requires that the output of `op` have the same "
                                         r"outer-dimension size"):
        tf.ragged.map_flat_values(lambda x: x[:1], rt)


def test_segment_ids_and_row_splits():
    got = run([tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
               tf.ragged.row_splits_to_segment_ids(tf.constant([0, 2, 2, 5], tf.int32),
                                                   out_type=tf.int64),
               tf.ragged.row_splits_to_segment_ids([0]),
               tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2]),
               tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2], num_segments=5),
               tf.ragged.segment_ids_to_row_splits(tf.constant([0, 0, 2], tf.int32)),
               tf.ragged.segment_ids_to_row_splits([0, 0, 2], out_type=tf.int32),
               tf.ragged.segment_ids_to_row_splits(tf.constant([], tf.int64))])
    assert [g.tolist() for g in got] == [[0, 0, 2, 2, 2], [0, 0, 2, 2, 2], [],
                                         [0, 2, 2, 5], [0, 2, 2, 5, 5, 5], [0, 2, 2, 3],
                                         [0, 2, 2, 3], [0]]
    assert [g.dtype for g in got] == [np.int64] * 5 + [np.int32, np.int32, np.int64]
    with pytest.raises(ValueError, match=r"Shape \(1, 1\) must have rank 1"):
        tf.ragged.row_splits_to_segment_ids([[0]])


def test_stack_dynamic_partitions():
    got = run([tf.ragged.stack_dynamic_partitions([10, 20, 30, 40, 50], [1, 0, 1, 3, 1], 4),
               tf.ragged.stack_dynamic_partitions([[1, 2], [3, 4], [5, 6]], [1, 0, 1], 3)])
    assert got[0].to_list() == [[20], [10, 30, 50], [], [40]]
    assert got[1].to_list() == [[[3, 4]], [[1, 2], [5, 6]], []]
    assert got[0].row_splits.dtype == np.int32
    fails(lambda: tf.ragged.stack_dynamic_partitions([10, 20], [1, 5], 3),
          errors.InvalidArgumentError, "partitions must be less than num_partitions")


def test_cross_and_cross_hashed_equal_tfs():
    a, b = C([["a", "b"], ["c"]]), C([["d"], ["e", "f"]])
    got = run([tf.ragged.cross([a, b]),
               tf.ragged.cross([a, tf.constant([["x"], ["y"]]),
                                tf.constant([[1], [2]], tf.int64)]),
               tf.ragged.cross([a, tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["p", "q", "r"],
                                                   [2, 2])]),
               tf.ragged.cross_hashed([a, b], num_buckets=100), tf.ragged.cross_hashed([a, b])])
    assert [g.to_list() for g in got] == [
        [[b"a_X_d", b"b_X_d"], [b"c_X_e", b"c_X_f"]],
        [[b"a_X_x_X_1", b"b_X_x_X_1"], [b"c_X_y_X_2"]],
        [[b"a_X_p", b"b_X_p"], [b"c_X_q", b"c_X_r"]],
        [[82, 54], [41, 68]],
        [[1584069791037555375, 2292520902626215647],
         [1746051686049959641, 4546572711251652368]]]
    with pytest.raises(ValueError, match="only supports inputs with rank=2"):
        tf.ragged.cross([C([[["a"]]])])


def test_ragged_tensor_spec():
    S = tf.RaggedTensorSpec
    # TF 2.15.1 under disable_v2_behavior (TF 1.x's TensorShape repr)
    assert repr(S([2, None], tf.int32, 1)) == "RaggedTensorSpec(TensorShape([Dimension(2), " \
        "Dimension(None)]), tf.int32, 1, tf.int64)"
    assert repr(S.from_value(C([[1]]))) == "RaggedTensorSpec(TensorShape([Dimension(1), " \
        "Dimension(None)]), tf.int32, 1, tf.int64)"
    assert repr(S.from_value(C([[[1]]], ragged_rank=1))) == "RaggedTensorSpec(TensorShape([" \
        "Dimension(1), Dimension(None), Dimension(1)]), tf.int32, 1, tf.int64)"
    assert repr(S.from_value(tf.ragged.constant_value([[1]]))) == \
        "RaggedTensorSpec(TensorShape([Dimension(1), Dimension(None)]), tf.int64, 1, " \
        "tf.int64)"
    assert repr(S([2, None]).most_specific_compatible_type(S([3, None]))) == \
        "RaggedTensorSpec(TensorShape([Dimension(None), Dimension(None)]), tf.float32, " \
        "1, tf.int64)"
    assert S([2, None, None]).ragged_rank == 2 and S([2, None, 3], ragged_rank=2).ragged_rank == 2
    assert S([2, None]).value_type is tf.RaggedTensor and S([2, 3], ragged_rank=0).value_type \
        is tf.Tensor
    assert S([2, None]).row_splits_dtype == tf.int64 and S([2, None]).dtype == tf.float32
    assert S([2, None]) == S([2, None]) and S(None, ragged_rank=1).shape.ndims is None
    rt = C([[1], [2, 3]])
    assert not S([2, None]).is_compatible_with(rt)                 # float32 vs int32
    assert not S([3, None], tf.int32).is_compatible_with(rt)
    assert S([2, None], tf.int32).is_compatible_with(rt)
    assert S([2, None], tf.int32).is_compatible_with(S([None, None], tf.int32))
    assert not S([2, None], tf.int32).is_compatible_with(
        S([None, None], tf.int32, row_splits_dtype=tf.int32))
    with pytest.raises(ValueError, match="Must specify ragged_rank or a shape with a known "
                                         "rank."):
        S()
    with pytest.raises(ValueError, match=r"Argument `ragged_rank` \(1\) must be less than "
                                         r"rank \(1\)."):
        S([2], tf.int32, 1)


def test_ragged_ops_run_on_a_remote_task(local_cluster):
    """The ragged ops' kernels are registered in every task (ops/ragged/__init__.py)."""
    cluster = local_cluster(ps=1, worker=1)
    with tf.device("/job:ps/task:0"):
        rt = tf.ragged.range([2, 0, 3])
        words = tf.strings.unicode_split(["héllo", "ab"], "UTF-8")
        dense = (rt * 10).to_tensor(default_value=-1)
    with tf.device("/job:worker/task:0"):
        crossed = tf.ragged.cross([C([["a"], ["b", "c"]]), C([["x"], ["y"]])])
    with tf.Session(cluster.target("worker", 0)) as sess:
        got = sess.run([rt, words, dense, crossed])
    assert got[0].to_list() == [[0, 1], [], [0, 1, 2]]
    assert got[1].to_list() == [[b"h", "é".encode(), b"l", b"l", b"o"], [b"a", b"b"]]
    assert got[2].tolist() == [[0, 10, -1], [-1, -1, -1], [0, 10, 20]]
    assert got[3].to_list() == [[b"a_X_x"], [b"b_X_y", b"c_X_y"]]
