"""tf.train.ProximalGradientDescentOptimizer, ProximalAdagradOptimizer and AdagradDAOptimizer
(train/proximal_gradient_descent.py, train/proximal_adagrad.py, train/adagrad_da.py; their
Apply ops in ops/training_ops.py, the SparseApply ops in ops/sparse_training_ops.py).

TF_VARS and TF_SLOTS are TensorFlow 2.15.1's numbers (tf.compat.v1 graph mode, measured with
/tmp/sandbox-ci-tf/bin/python), printed as float32 by a script that builds exactly the programs
of `_program` below: a 3 x 4 variable with loss = sum(var ** 2 * A + var * B) (a dense
gradient), and a 6 x 3 embedding with loss = sum(0.5 * rows ** 2 + rows * W) for
rows = embedding_lookup(emb, ids) (an IndexedSlices gradient; ids BATCHES[0..2], so rows 3
and 5 are never touched and row 1 repeats), three minimize() steps with a global step, each
optimizer with l1 and l2 non-zero ('...L2': l2 only). The same script gave SLOT_VAR_NAMES and
TF_APPLY_OPS (the Apply op TF builds under update_<var>).
"""
import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port

INIT = (np.arange(12, dtype=np.float32).reshape(3, 4) / 6.0 - 1.0)
A = np.array([[0.5, 1.0, 0.25, 2.0], [1.5, 0.75, 1.0, 0.5], [0.25, 2.0, 1.25, 1.0]], np.float32)
B = np.array([[0.3, -0.2, 0.05, -0.6], [0.1, 0.4, -0.3, 0.2], [-0.5, 0.02, 0.6, -0.1]],
             np.float32)
EMB = np.arange(18, dtype=np.float32).reshape(6, 3) / 10.0 - 0.5
W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-2.0, 1.0, 0.5]], np.float32)
BATCHES = [[1, 1, 4], [4, 2, 4], [0, 1, 1]]
UNTOUCHED_ROWS = [3, 5]

MAKERS = {
    "ProximalGradientDescent": lambda gs: tf.train.ProximalGradientDescentOptimizer(
        0.1, l1_regularization_strength=0.5, l2_regularization_strength=0.2),
    "ProximalGradientDescentL2": lambda gs: tf.train.ProximalGradientDescentOptimizer(
        0.1, l2_regularization_strength=0.2),
    "ProximalAdagrad": lambda gs: tf.train.ProximalAdagradOptimizer(
        0.2, initial_accumulator_value=0.1, l1_regularization_strength=0.3,
        l2_regularization_strength=0.1),
    "ProximalAdagradL2": lambda gs: tf.train.ProximalAdagradOptimizer(
        0.2, initial_accumulator_value=0.1, l2_regularization_strength=0.1),
    "AdagradDA": lambda gs: tf.train.AdagradDAOptimizer(
        0.3, gs, initial_gradient_squared_accumulator_value=0.1,
        l1_regularization_strength=0.3, l2_regularization_strength=0.05),
    "AdagradDAL2": lambda gs: tf.train.AdagradDAOptimizer(
        0.3, gs, initial_gradient_squared_accumulator_value=0.1,
        l2_regularization_strength=0.05),
}
CASES = [f"{name}/{kind}" for name in MAKERS for kind in ("dense", "sparse")]

# The slots and their variables' names, as TF 2.15 names them ('var' dense, 'emb' sparse).
SLOT_VAR_NAMES = {
    "ProximalGradientDescent": {},
    "ProximalAdagrad": {"accumulator": "{v}/ProximalAdagrad"},
    "AdagradDA": {"gradient_accumulator": "{v}/AdagradDA",
                  "gradient_squared_accumulator": "{v}/AdagradDA_1"},
}
TF_APPLY_OPS = {
    "ProximalGradientDescent": ("ApplyProximalGradientDescent",
                                "SparseApplyProximalGradientDescent"),
    "ProximalAdagrad": ("ApplyProximalAdagrad", "SparseApplyProximalAdagrad"),
    "AdagradDA": ("ApplyAdagradDA", "SparseApplyAdagradDA"),
}

# TensorFlow 2.15.1's numbers (see the docstring).
TF_VARS = {  # var after steps 1, 2, 3
    "ProximalGradientDescent/dense": [
        [[-0.862745106, -0.584967315, -0.576797366, -0.186274529], [-0.189542472, -0.129084989, 0, 0.0784313455], [0.310457557, 0.24313724, 0.382352948, 0.614379108]],  # noqa: E501
        [[-0.741637826, -0.390170425, -0.493095547, -0.00173010887], [-0.0908624753, -0.0977669135, 0, 0.000576674938], [0.289151639, 0.0920415074, 0.173298731, 0.442650288]],  # noqa: E501
        [[-0.6347785, -0.237388581, -0.415138006, 0.00878621452], [-0.0231409166, -0.0716685057, 0, -0], [0.269307911, 0.00316166854, 0.0195823945, 0.307961017]],  # noqa: E501
    ],
    "ProximalGradientDescent/sparse": [
        [[-0.5, -0.400000006, -0.300000012], [-0.303921551, -0, -0.0735294148], [0.100000024, 0.199999988, 0.300000012], [0.399999976, 0.5, 0.600000024], [0.764705956, 0.558823466, 0.69607842], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.5, -0.400000006, -0.300000012], [-0.303921551, -0, -0.0735294148], [-0.00980390888, 0.10294117, 0.289215684], [0.399999976, 0.5, 0.600000024], [0.697808623, 0.389273286, 0.251826197], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.441176474, -0.205882356, -0.411764741], [-0.140330642, -0.0735294148, -0], [-0.00980390888, 0.10294117, 0.289215684], [0.399999976, 0.5, 0.600000024], [0.697808623, 0.389273286, 0.251826197], [1, 1.10000002, 1.20000005]],  # noqa: E501
    ],
    "ProximalGradientDescentL2/dense": [
        [[-0.911764741, -0.63398689, -0.625817001, -0.235294133], [-0.238562077, -0.178104594, 0.0294117667, 0.127450943], [0.359477162, 0.292156845, 0.431372553, 0.663398743]],  # noqa: E501
        [[-0.833910048, -0.477636784, -0.58777076, -0.0795847774], [-0.173523009, -0.187636182, 0.0524798185, 0.0928488746], [0.383826762, 0.16989617, 0.258362174, 0.530116677]],  # noqa: E501
        [[-0.765214801, -0.355009258, -0.552335501, 0.0120089557], [-0.128888339, -0.195579171, 0.0705724135, 0.0623176359], [0.406505316, 0.0979781374, 0.131148651, 0.425581723]],  # noqa: E501
    ],
    "ProximalGradientDescentL2/sparse": [
        [[-0.5, -0.400000006, -0.300000012], [-0.352941155, -0.00490194885, -0.12254902], [0.100000024, 0.199999988, 0.300000012], [0.399999976, 0.5, 0.600000024], [0.813725531, 0.607843101, 0.745098054], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.5, -0.400000006, -0.300000012], [-0.352941155, -0.00490194885, -0.12254902], [-0.0588235185, 0.151960775, 0.338235289], [0.399999976, 0.5, 0.600000024], [0.785274982, 0.476739705, 0.339292586], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.490196079, -0.254901946, -0.460784346], [-0.227797002, -0.126393691, -0.0716070756], [-0.0588235185, 0.151960775, 0.338235289], [0.399999976, 0.5, 0.600000024], [0.785274982, 0.476739705, 0.339292586], [1, 1.10000002, 1.20000005]],  # noqa: E501
    ],
    "ProximalAdagrad/dense": [
        [[-0.720852792, -0.598133028, -0.374263257, -0.276443988], [-0.0800662935, -0.0765765756, 0, 0], [0.333333343, 0.270415902, 0.438536018, 0.592334211]],  # noqa: E501
        [[-0.543828487, -0.450093478, -0.170672044, -0.147159293], [-0, -0.0670218766, 0, -0], [0.333333313, 0.14843531, 0.296300054, 0.444360614]],  # noqa: E501
        [[-0.415064365, -0.339646757, -0.0199384019, -0.0577811524], [-0, -0.064445965, 0, -0], [0.333333343, 0.0717636272, 0.190862894, 0.336768359]],  # noqa: E501
    ],
    "ProximalAdagrad/sparse": [
        [[-0.5, -0.400000006, -0.300000012], [-0.355062157, 0.0292534735, -0.145106882], [0.100000024, 0.199999988, 0.300000012], [0.399999976, 0.5, 0.600000024], [0.836975336, 0.564013898, 0.65399754], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.5, -0.400000006, -0.300000012], [-0.355062157, 0.0292534735, -0.145106882], [-0.058696419, 0, 0.342105299], [0.399999976, 0.5, 0.600000024], [0.755517483, 0.427052438, 0.449894577], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.291807801, -0.160869122, -0.456646472], [-0.204332322, -0.0920481682, -0.0245511346], [-0.058696419, 0, 0.342105299], [0.399999976, 0.5, 0.600000024], [0.755517483, 0.427052438, 0.449894577], [1, 1.10000002, 1.20000005]],  # noqa: E501
    ],
    "ProximalAdagradL2/dense": [
        [[-0.796983838, -0.629493058, -0.509218693, -0.299178511], [-0.141671792, -0.23873876, 0.131610721, 0.0146089541], [0.458471984, 0.29947716, 0.46452558, 0.629410982]],  # noqa: E501
        [[-0.673612654, -0.503202081, -0.405200511, -0.184877902], [-0.0756692961, -0.248412892, 0.14193669, -0.0640156716], [0.539770007, 0.195482761, 0.340190977, 0.506876945]],  # noqa: E501
        [[-0.586136997, -0.410021812, -0.330261767, -0.106541485], [-0.0496835485, -0.249772459, 0.142781258, -0.109739788], [0.598400414, 0.130577877, 0.24888511, 0.419015765]],  # noqa: E501
    ],
    "ProximalAdagradL2/sparse": [
        [[-0.5, -0.400000006, -0.300000012], [-0.391404867, 0.088005051, -0.190930098], [0.100000024, 0.199999988, 0.300000012], [0.399999976, 0.5, 0.600000024], [0.881160975, 0.596489012, 0.695226967], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.5, -0.400000006, -0.300000012], [-0.391404867, 0.088005051, -0.190930098], [-0.0950391144, 0.0350877009, 0.447368473], [0.399999976, 0.5, 0.600000024], [0.830497026, 0.482741833, 0.505152404], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.470258266, -0.202098578, -0.490948647], [-0.265204012, -0.0748183206, -0.10150598], [-0.0950391144, 0.0350877009, 0.447368473], [0.399999976, 0.5, 0.600000024], [0.830497026, 0.482741833, 0.505152404], [1, 1.10000002, 1.20000005]],  # noqa: E501
    ],
    "AdagradDA/dense": [
        [[0.153234288, 0.2462973, 0, 0.261943072], [0.185770154, -0, 0, -0.0400644951], [0.0210762043, -0.25053376, -0.256118715, -0.235547468]],  # noqa: E501
        [[0, 0.150185436, 0, 0.173293844], [0, -0, 0, -0], [0.0953025743, -0.0571561307, -0.210399508, -0.0687062219]],  # noqa: E501
        [[-0, 0.0876608416, 0, 0.128602892], [0, -0.021120565, 0, -0], [0.13170518, -0, -0.179906115, -0]],  # noqa: E501
    ],
    "AdagradDA/sparse": [
        [[-0.5, -0.400000006, -0.300000012], [-0.236945152, 0.191882089, -0.218494654], [0.100000024, 0.199999988, 0.300000012], [0.399999976, 0.5, 0.600000024], [0.221744418, -0.244224548, -0.227543816], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.5, -0.400000006, -0.300000012], [-0.236945152, 0.191882089, -0.218494654], [-0.180619463, -0, 0], [0.399999976, 0.5, 0.600000024], [0.303761035, -0.111080661, -0.337563872], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0, 0.101332866, -0.135275155], [-0, -0, -0], [-0.180619463, -0, 0], [0.399999976, 0.5, 0.600000024], [0.303761035, -0.111080661, -0.337563872], [1, 1.10000002, 1.20000005]],  # noqa: E501
    ],
    "AdagradDAL2/dense": [
        [[0.268160015, 0.293460608, 0.193361416, 0.296109587], [0.278655261, -0.123287655, 0.199605286, -0.220354915], [0.210762247, -0.294231504, -0.295187652, -0.291335016]],  # noqa: E501
        [[0.0401376411, 0.226215169, 0.0855479985, 0.22283107], [-0.00789634231, -0.248460099, 0.126272693, -0.201883048], [0.343552351, -0.108826078, -0.274933875, -0.150003374]],  # noqa: E501
        [[-0.0589995272, 0.184668511, 0.026134083, 0.188486546], [-0.0243444685, -0.257745653, 0.150588036, -0.195097342], [0.431745708, -0.0552652776, -0.261776209, -0.0794123784]],  # noqa: E501
    ],
    "AdagradDAL2/sparse": [
        [[-0.5, -0.400000006, -0.300000012], [-0.291624784, 0.280443043, -0.287492961], [0.100000024, 0.199999988, 0.300000012], [0.399999976, 0.5, 0.600000024], [0.288267761, -0.293069452, -0.289601237], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0.5, -0.400000006, -0.300000012], [-0.291624784, 0.280443043, -0.287492961], [-0.288991153, -0.232758641, 0.232758641], [0.399999976, 0.5, 0.600000024], [0.402883083, -0.186818749, -0.410345882], [1, 1.10000002, 1.20000005]],  # noqa: E501
        [[-0, 0.283732057, -0.287459731], [-0.0773997605, -0.122154638, -0.0809181035], [-0.288991153, -0.232758641, 0.232758641], [0.399999976, 0.5, 0.600000024], [0.402883083, -0.186818749, -0.410345882], [1, 1.10000002, 1.20000005]],  # noqa: E501
    ],
}
TF_SLOTS = {  # the slots after step 3
    "ProximalAdagrad/dense": {
        "accumulator": [[0.826569319, 6.74441433, 0.200331479, 11.1825294], [0.939655542, 0.293482661, 0.370000005, 0.314444393], [0.433333337, 5.77074099, 9.91295815, 4.35303116]],  # noqa: E501
    },
    "ProximalAdagrad/sparse": {
        "accumulator": [[0.100000001, 2.05999994, 2.99000001], [4.12440062, 2.71469069, 1.95433104], [2.66000009, 0.30249998, 0.30249998], [0.100000001, 0.100000001, 0.100000001], [1.82025874, 4.61244678, 16.5608253], [0.100000001, 0.100000001, 0.100000001]],  # noqa: E501
    },
    "ProximalAdagradL2/dense": {
        "accumulator": [[0.976579309, 7.16849613, 0.24542959, 11.882472], [1.03176594, 0.125004634, 0.191612735, 0.29899317], [0.337377161, 6.30679417, 10.4438887, 4.7322588]],  # noqa: E501
    },
    "ProximalAdagradL2/sparse": {
        "accumulator": [[0.100000001, 2.05999994, 2.99000001], [4.30560017, 3.03600502, 2.06174731], [2.66000009, 0.30249998, 0.30249998], [0.100000001, 0.100000001, 0.100000001], [1.85881269, 4.76319599, 17.195631], [0.100000001, 0.100000001, 0.100000001]],  # noqa: E501
    },
    "AdagradDA/dense": {
        "gradient_accumulator": [[0.0532343388, -1.47370124, -0.183333308, -2.05905223], [-0.142689437, 0.949999928, -0.900000036, 0.726602137], [-1.27514386, 0.829240382, 2.30037093, 0.758159339]],  # noqa: E501
        "gradient_squared_accumulator": [[0.885421276, 3.68013024, 0.18527776, 7.06918097], [1.35205698, 0.442499995, 0.370000005, 0.300023764], [0.655303419, 5.18851328, 5.24487638, 2.93695879]],  # noqa: E501
    },
    "AdagradDA/sparse": {
        "gradient_accumulator": [[0, -1.39999998, 1.70000005], [0.6261096, 0.683764219, 0.563010693], [1.60000002, 0.449999988, -0.449999988], [0, 0, 0], [-2.35651112, 1.31155086, 3.44491243], [0, 0, 0]],  # noqa: E501
        "gradient_squared_accumulator": [[0.100000001, 2.05999994, 2.99000001], [3.60846186, 3.6716857, 2.13445425], [2.66000009, 0.30249998, 0.30249998], [0.100000001, 0.100000001, 0.100000001], [2.90621567, 3.57858229, 6.24166632], [0.100000001, 0.100000001, 0.100000001]],  # noqa: E501
    },
    "AdagradDAL2/dense": {
        "gradient_accumulator": [[0.208297729, -1.22731507, -0.0438785851, -1.72423732], [0.112276837, 0.39237836, -0.248244077, 0.344428658], [-1.05617595, 0.447769642, 2.04136276, 0.483989924]],  # noqa: E501
        "gradient_squared_accumulator": [[1.02849936, 3.7978735, 0.210400015, 7.28643703], [1.7918551, 0.169500291, 0.202094674, 0.234862283], [0.474566042, 5.69135571, 5.26443958, 3.18048835]],  # noqa: E501
    },
    "AdagradDAL2/sparse": {
        "gradient_accumulator": [[0, -1.39999998, 1.70000005], [0.516750336, 0.860886097, 0.425014019], [1.60000002, 0.449999988, -0.449999988], [0, 0, 0], [-2.22346449, 1.21386099, 3.32079744], [0, 0, 0]],  # noqa: E501
        "gradient_squared_accumulator": [[0.100000001, 2.05999994, 2.99000001], [3.83342934, 4.28180885, 2.34310198], [2.66000009, 0.30249998, 0.30249998], [0.100000001, 0.100000001, 0.100000001], [2.6427865, 3.68355846, 5.74946308], [0.100000001, 0.100000001, 0.100000001]],  # noqa: E501
    },
}


def _program(case):
    """(var, opt, train_op, feeds for the 3 steps) of the program of the docstring."""
    name, kind = case.split("/")
    gs = tf.train.create_global_step()
    opt = MAKERS[name](gs)
    if kind == "sparse":
        var = tf.Variable(EMB, name="emb")
        ids = tf.placeholder(tf.int32, [3], name="ids")
        rows = tf.nn.embedding_lookup(var, ids)
        loss = tf.reduce_sum(0.5 * tf.square(rows) + rows * W)
        feeds = [{ids: batch} for batch in BATCHES]
    else:
        var = tf.Variable(INIT, name="var")
        loss = tf.reduce_sum(tf.square(var) * A + var * B)
        feeds = [None] * 3
    return var, opt, opt.minimize(loss, global_step=gs), feeds


def _run(case, target=""):
    """The values of var after each step, and of its slots after the last."""
    var, opt, train, feeds = _program(case)
    with tf.Session(target) as sess:
        sess.run(tf.global_variables_initializer())
        values = []
        for feed in feeds:
            sess.run(train, feed)
            values.append(sess.run(var))
        slots = {s: sess.run(opt.get_slot(var, s)) for s in opt.get_slot_names()}
    return values, slots


@pytest.fixture
def fresh():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


@pytest.mark.parametrize("case", CASES)
def test_three_steps_give_tensorflows_numbers(fresh, case):
    values, slots = _run(case)
    for step, (got, want) in enumerate(zip(values, TF_VARS[case]), 1):
        want = np.array(want, np.float32)
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-7, err_msg=f"step {step}")
        # l1 makes weights exactly 0: the same ones as TF's.
        np.testing.assert_array_equal(got == 0, want == 0, err_msg=f"zeros at step {step}")
    assert sorted(slots) == sorted(TF_SLOTS.get(case, {}))
    for slot, want in TF_SLOTS.get(case, {}).items():
        np.testing.assert_allclose(slots[slot], np.array(want, np.float32), rtol=2e-6,
                                   atol=1e-7, err_msg=slot)


@pytest.mark.parametrize("case", [c for c in CASES if c.endswith("/sparse")])
def test_a_sparse_step_only_touches_the_looked_up_rows(fresh, case):
    values, slots = _run(case)
    name = case.split("/")[0].replace("L2", "")
    initial = {"accumulator": 0.1, "gradient_accumulator": 0.0,
               "gradient_squared_accumulator": 0.1}
    np.testing.assert_array_equal(values[-1][UNTOUCHED_ROWS], EMB[UNTOUCHED_ROWS])
    for slot, value in slots.items():
        np.testing.assert_array_equal(value[UNTOUCHED_ROWS],
                                      np.full((2, 3), initial[slot], np.float32))
    # Row 4 is looked up at steps 1 and 2 only: step 3 leaves it as it was.
    np.testing.assert_array_equal(values[2][4], values[1][4])
    # The update is the SparseApply op (no densified gradient), beside the variable.
    ops = [op for op in tf.get_default_graph().get_operations()
           if op.name.startswith(f"{name}/update_emb/")]
    assert TF_APPLY_OPS[name][1] in {op.type for op in ops}
    assert TF_APPLY_OPS[name][0] not in {op.type for op in ops}


@pytest.mark.parametrize("name", list(SLOT_VAR_NAMES))
@pytest.mark.parametrize("kind", ["dense", "sparse"])
def test_slot_names_shapes_and_apply_ops_are_tensorflows(fresh, name, kind):
    var, opt, _, _ = _program(f"{name}/{kind}")
    v = var.op.name
    assert opt.get_slot_names() == sorted(SLOT_VAR_NAMES[name])
    for slot, var_name in SLOT_VAR_NAMES[name].items():
        slot_var = opt.get_slot(var, slot)
        assert slot_var.op.name == var_name.format(v=v)
        assert slot_var.get_shape().as_list() == var.get_shape().as_list()
        assert slot_var.dtype.base_dtype == tf.float32
        assert slot_var not in tf.trainable_variables()
    apply_ops = {op.type for op in tf.get_default_graph().get_operations()
                 if op.name.startswith(f"{name}/update_{v}/")
                 and op.type.startswith(("Apply", "SparseApply"))}
    assert apply_ops == {TF_APPLY_OPS[name][kind == "sparse"]}


def test_exported_names_and_argument_checks():
    for name in ("ProximalGradientDescentOptimizer", "ProximalAdagradOptimizer",
                 "AdagradDAOptimizer"):
        assert name in tf.train.__all__ and issubclass(getattr(tf.train, name),
                                                       tf.train.Optimizer)
    assert tf.train.ProximalGradientDescentOptimizer(0.1).get_name() == \
        "ProximalGradientDescent"
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive"):
        tf.train.ProximalAdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value"):
        tf.train.AdagradDAOptimizer(0.1, None, initial_gradient_squared_accumulator_value=-1.0)


def test_adagrad_da_reads_the_global_step_plus_one(fresh):
    """T in the formula is global_step + 1 when the update runs: from a global step of 9, one
    step gives var = -sign(g) lr max(|g| - 10 l1, 0) / (10 l2 lr + sqrt(gg))."""
    gs = tf.train.create_global_step()
    var = tf.Variable([1.0, -2.0, 0.5], name="w")
    grad = np.array([3.0, -0.5, 2.0], np.float32)
    opt = tf.train.AdagradDAOptimizer(0.5, gs, l1_regularization_strength=0.1,
                                      l2_regularization_strength=0.2)
    train = opt.apply_gradients([(tf.constant(grad), var)], global_step=gs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(gs.assign(9))
        sess.run(train)
        got, step = sess.run([var, gs])
    assert step == 10
    t, lr = 10, 0.5
    want = -np.sign(grad) * lr * np.maximum(np.abs(grad) - t * 0.1, 0) / \
        (0.2 * t * lr + np.sqrt(0.1 + grad * grad))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got[1] == 0


def test_the_kernels_check_shapes_and_indices(fresh):
    from sandbox.ops import sparse_training_ops, training_ops
    var = tf.Variable(np.zeros((4, 2), np.float32))
    accum = tf.Variable(np.full((4, 2), 0.1, np.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
            sess.run(sparse_training_ops.sparse_apply_proximal_adagrad(
                var, accum, 0.1, 0.0, 0.0, np.ones((1, 2), np.float32), [4]))
        bad = tf.placeholder(tf.float32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="same shape"):
            sess.run(training_ops.apply_proximal_gradient_descent(var, 0.1, 0.0, 0.0, bad),
                     {bad: np.ones((2, 2), np.float32)})


def test_proximal_adagrad_on_a_ps_and_a_worker_gives_the_local_numbers(fresh):
    """One ps + one worker (tf.train.Server in this process): the variables and their slots
    live on the ps, the Apply ops run there, and the numbers are the local run's."""
    cases = ["ProximalAdagrad/dense", "ProximalAdagrad/sparse"]
    local = {}
    for case in cases:
        tf.reset_default_graph()
        local[case] = _run(case)
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    worker = tf.train.Server(cluster, job_name="worker", task_index=0)
    try:
        for case in cases:
            tf.reset_default_graph()
            with tf.device(tf.train.replica_device_setter(
                    cluster=cluster, worker_device="/job:worker/task:0")):
                var, opt, train, feeds = _program(case)
            slot = opt.get_slot(var, "accumulator")
            assert var.device.startswith("/job:ps") and slot.device.startswith("/job:ps")
            applies = [op for op in tf.get_default_graph().get_operations()
                       if "ApplyProximalAdagrad" in op.type]
            assert len(applies) == 1 and applies[0].device.startswith("/job:ps")
            config = tf.ConfigProto(operation_timeout_in_ms=30000)
            with tf.Session(worker.target, config=config) as sess:
                sess.run(tf.global_variables_initializer())
                values = []
                for feed in feeds:
                    sess.run(train, feed)
                    values.append(sess.run(var))
                accum = sess.run(slot)
            want_values, want_slots = local[case]
            for got, want in zip(values, want_values):
                np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(accum, want_slots["accumulator"])
            np.testing.assert_allclose(values[-1], np.array(TF_VARS[case][-1], np.float32),
                                       rtol=2e-6, atol=1e-7)
    finally:
        worker.stop()
        ps.stop()


@pytest.mark.parametrize("case", ["ProximalGradientDescent/dense", "ProximalAdagrad/sparse",
                                  "AdagradDA/dense", "AdagradDA/sparse"])
def test_use_locking_gives_the_same_numbers(fresh, case, monkeypatch):
    """With use_locking=True the kernels hold the cells' locks; the numbers do not change."""
    name = case.split("/")[0]
    make = MAKERS[name]

    def locking(gs):
        opt = make(gs)
        opt._use_locking = True
        return opt
    monkeypatch.setitem(MAKERS, name, locking)
    values, _ = _run(case)
    applies = [op for op in tf.get_default_graph().get_operations()
               if op.type in TF_APPLY_OPS[name]]
    assert applies and all(op.get_attr("use_locking") for op in applies)
    np.testing.assert_allclose(values[-1], np.array(TF_VARS[case][-1], np.float32), rtol=2e-6,
                               atol=1e-7)
