"""keras.preprocessing (sandbox/keras/preprocessing/: sequence.py, text.py, image.py): the same
calls as in TensorFlow, compared with what TF 2.15.1's keras.preprocessing (tf.compat.v1.keras)
printed for them -- padded sequences, skip-grams, time-series batches, tokenizer ids and
matrices, hashed words, affine warps, standardized and randomly augmented image batches."""
import random

import numpy as np
import pytest

import sandbox as tf
from sandbox.keras.preprocessing import image_transforms, image_utils

P = tf.keras.preprocessing
I = P.image

SEQS = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], []]
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "cat cat dog"]
IMAGES = np.arange(2 * 5 * 6 * 3, dtype="float32").reshape(2, 5, 6, 3)
CHANNELS_LAST = dict(row_axis=0, col_axis=1, channel_axis=2)


# -- sequence ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, expected", [
    ({}, [[0, 0, 1, 2, 3], [0, 0, 0, 4, 5], [6, 7, 8, 9, 10], [0, 0, 0, 0, 0]]),
    (dict(maxlen=3, padding="post", truncating="post", value=-1),
     [[1, 2, 3], [4, 5, -1], [6, 7, 8], [-1, -1, -1]]),
    (dict(maxlen=3), [[1, 2, 3], [0, 4, 5], [8, 9, 10], [0, 0, 0]]),
])
def test_pad_sequences_match_tf(kwargs, expected):
    out = P.sequence.pad_sequences(SEQS, **kwargs)
    assert out.dtype == np.int32
    assert out.tolist() == expected                                  # TF 2.15.1's
    floats = P.sequence.pad_sequences([[1.5, 2.5]], maxlen=3, dtype="float32")
    assert floats.tolist() == [[0.0, 1.5, 2.5]]
    with pytest.raises(ValueError, match='Padding type "middle" not understood'):
        P.sequence.pad_sequences(SEQS, padding="middle")


def test_sampling_table_and_skipgrams_match_tf():
    np.testing.assert_allclose(P.sequence.make_sampling_table(5),        # TF 2.15.1's
                               [0.00315225, 0.00315225, 0.00547597, 0.00741556, 0.00912817],
                               rtol=1e-6)
    random.seed(3)
    couples, labels = P.sequence.skipgrams([1, 2, 3, 0, 4], 6, window_size=1, seed=7)
    assert couples == [[2, 4], [2, 5], [2, 3], [3, 3], [1, 2], [3, 2], [2, 1], [1, 5]]
    assert labels == [0, 0, 1, 0, 1, 1, 1, 0]
    couples, labels = P.sequence.skipgrams([1, 2], 3, negative_samples=0, categorical=True,
                                           shuffle=False)
    assert couples == [[1, 2], [2, 1]] and labels == [[0, 1], [0, 1]]


def test_timeseries_generator_batches_match_tf():
    data, targets = np.arange(20).reshape(10, 2), np.arange(10)
    gen = P.sequence.TimeseriesGenerator(data, targets, length=3, sampling_rate=2, stride=2,
                                         batch_size=2, reverse=True)
    assert isinstance(gen, tf.keras.utils.Sequence) and len(gen) == 2
    batches = [(x.tolist(), y.tolist()) for x, y in gen]                # TF 2.15.1's
    assert batches == [([[[4, 5], [0, 1]], [[8, 9], [4, 5]]], [3, 5]),
                       ([[[12, 13], [8, 9]], [[16, 17], [12, 13]]], [7, 9])]
    assert gen.get_config()["start_index"] == 3 and '"length": 3' in gen.to_json()
    with pytest.raises(ValueError, match="start_index\\+length=12 > end_index=9"):
        P.sequence.TimeseriesGenerator(data, targets, length=12)


# -- text --------------------------------------------------------------------------------------

def test_tokenizer_matches_tf():
    tok = P.text.Tokenizer(num_words=6, oov_token="<unk>")
    tok.fit_on_texts(TEXTS)
    assert sorted(tok.word_index.items(), key=lambda kv: kv[1]) == [   # TF 2.15.1's
        ("<unk>", 1), ("the", 2), ("cat", 3), ("dog", 4), ("sat", 5), ("on", 6), ("mat", 7),
        ("ate", 8), ("my", 9), ("homework", 10)]
    assert tok.texts_to_sequences(["the cat ate a mat", "zebra dog"]) == [[2, 3, 1, 1, 1],
                                                                          [1, 4]]
    assert tok.sequences_to_texts([[2, 3, 9, 1]]) == ["the cat <unk> <unk>"]
    expected = {"binary": [[0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 1, 0]],
                "count": [[0, 0, 2, 1, 0, 0], [0, 0, 0, 0, 1, 0]],
                "freq": [[0, 0, 0.666667, 0.333333, 0, 0], [0, 0, 0, 0, 1, 0]],
                "tfidf": [[0, 0, 1.1736, 0.693147, 0, 0], [0, 0, 0, 0, 0.693147, 0]]}
    for mode, values in expected.items():
        np.testing.assert_allclose(tok.texts_to_matrix(["the cat the", "dog"], mode=mode),
                                   values, atol=1e-5)
    again = P.text.tokenizer_from_json(tok.to_json())
    assert again.texts_to_sequences(["the cat ate a mat"]) == [[2, 3, 1, 1, 1]]
    assert (again.num_words, again.oov_token) == (6, "<unk>")
    chars = P.text.Tokenizer(char_level=True)
    chars.fit_on_texts(["abca"])
    assert chars.word_index == {"a": 1, "b": 2, "c": 3}
    with pytest.raises(ValueError, match="Specify a dimension"):
        P.text.Tokenizer().texts_to_matrix(["a"])


def test_word_sequence_and_hashing_match_tf():
    assert P.text.text_to_word_sequence("Hello, World! it's-a me") == [
        "hello", "world", "it's", "a", "me"]
    assert P.text.hashing_trick("the cat sat on the mat", 10, hash_function="md5") == [
        6, 3, 1, 1, 6, 8]                                              # TF 2.15.1's
    ids = P.text.one_hot("a b a", 7)
    assert ids[0] == ids[2] and all(1 <= i < 7 for i in ids)


# -- image -------------------------------------------------------------------------------------

def test_apply_affine_transform_matches_tf():
    warped = I.apply_affine_transform(IMAGES[0], theta=30, tx=1, ty=-1, shear=10, zx=1.2,
                                      zy=0.9, **CHANNELS_LAST)
    np.testing.assert_allclose(warped.sum(axis=(0, 1)),                 # TF 2.15.1's
                               [1452.0542, 1482.0542, 1512.0542], rtol=1e-5)
    rotated = I.apply_affine_transform(IMAGES[0], theta=30, fill_mode="constant", cval=-1.0,
                                       **CHANNELS_LAST)
    np.testing.assert_allclose(rotated[:, :, 0], [
        [-1.0, -1.0, 15.7789, 27.3769, 38.9750, -1.0],
        [6.6712, 18.2692, 29.8673, 41.4654, 53.0635, -1.0],
        [20.7596, 32.3577, 43.9558, 55.5538, 67.1519, 78.75],
        [34.8481, 46.4462, 58.0442, 69.6423, 81.2404, -1.0],
        [-1.0, 60.5346, 72.1327, -1.0, -1.0, -1.0]], atol=1e-3)
    image = IMAGES[0]
    assert I.apply_affine_transform(image, **CHANNELS_LAST) is image      # nothing to do
    with pytest.raises(ValueError, match="must be distinct"):
        I.apply_affine_transform(IMAGES[0], theta=1, row_axis=0, col_axis=0, channel_axis=2)


@pytest.mark.parametrize("transform, expected", [                     # TF 2.15.1's sums
    (lambda x: I.random_rotation(x, 30, **CHANNELS_LAST), 3804.89),
    (lambda x: I.random_zoom(x, (0.8, 1.2), **CHANNELS_LAST), 3917.917),
    (lambda x: I.random_shift(x, 0.2, 0.2, **CHANNELS_LAST), 5033.023),
    (lambda x: I.random_shear(x, 20, **CHANNELS_LAST), 3998.51),
    (lambda x: I.random_channel_shift(x, 5, channel_axis=2), 3760.134),
])
def test_random_transforms_match_tf(transform, expected):
    np.random.seed(5)
    assert transform(IMAGES[0]).sum() == pytest.approx(expected, abs=2e-3)


def test_image_data_generator_fit_and_flow_match_tf():
    gen = I.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True,
                               rescale=0.5)
    gen.fit(IMAGES)
    np.testing.assert_allclose(gen.mean.ravel(), [44.25, 44.75, 45.25])   # TF 2.15.1's
    np.testing.assert_allclose(gen.std.ravel(), [25.977160] * 3, rtol=1e-6)
    flow = gen.flow(IMAGES, np.array([0, 1]), batch_size=1, shuffle=False)
    x, y = flow[0]
    assert len(flow) == 2 and x.shape == (1, 5, 6, 3) and y.tolist() == [0]
    np.testing.assert_allclose(x[0, :2, :2, 0], [[-1.70342, -1.64568], [-1.35696, -1.29922]],
                               atol=1e-5)

    augment = I.ImageDataGenerator(rotation_range=40, width_shift_range=0.2,
                                   height_shift_range=0.2, shear_range=20, zoom_range=0.3,
                                   horizontal_flip=True, vertical_flip=True, rescale=1 / 255.)
    images = np.random.RandomState(0).randint(0, 256, (7, 8, 8, 3)).astype("float32")
    flow = augment.flow(images, np.arange(7), batch_size=3, seed=1)
    batches = [next(flow) for _ in range(3)]
    assert [b[0].shape for b in batches] == [(3, 8, 8, 3), (3, 8, 8, 3), (1, 8, 8, 3)]
    assert [sorted(b[1].tolist()) for b in batches] == [[1, 2, 6], [0, 3, 4], [5]]   # TF's
    assert all(0 <= b[0].min() and b[0].max() <= 1 for b in batches)
    with pytest.raises(ValueError, match="should have rank 4"):
        augment.flow(images[0])


def test_image_arrays_and_files(tmp_path, monkeypatch):
    img = I.array_to_img(IMAGES[0])
    assert (img.mode, img.size) == ("RGB", (6, 5))                      # PIL: (width, height)
    assert I.img_to_array(img)[0, :3, 0].tolist() == [0.0, 8.0, 17.0]   # TF 2.15.1's
    path = str(tmp_path / "a.png")
    I.save_img(path, IMAGES[0])
    assert I.img_to_array(I.load_img(path, target_size=(3, 4))).shape == (3, 4, 3)
    assert I.img_to_array(I.load_img(path, color_mode="grayscale")).shape == (5, 6, 1)
    assert I.img_to_array(np.zeros((2, 3)), data_format="channels_first").shape == (1, 2, 3)
    monkeypatch.setattr(image_utils, "pil_image", None)                       # without Pillow: TF's error
    with pytest.raises(ImportError, match="The use of `load_img` requires PIL"):
        I.load_img(path)


@pytest.mark.parametrize("fill_mode", ["nearest", "constant", "reflect", "wrap"])
@pytest.mark.parametrize("order", [0, 1])
def test_numpy_warp_gives_scipys_numbers(monkeypatch, fill_mode, order):
    """Without SciPy the affine warp is NumPy's: the same numbers as scipy.ndimage."""
    rng = np.random.RandomState(order)
    image = rng.rand(7, 9, 2).astype("float32")
    args = dict(theta=25, tx=1.5, ty=-2, shear=12, zx=1.3, zy=0.8, fill_mode=fill_mode,
                cval=-1.0, order=order, **CHANNELS_LAST)
    expected = I.apply_affine_transform(image, **args)            # scipy, as TF
    monkeypatch.setattr(image_transforms, "ndimage", None)
    np.testing.assert_allclose(I.apply_affine_transform(image, **args), expected, atol=1e-5)
    if fill_mode == "constant" and order == 1:
        warped = I.apply_affine_transform(IMAGES[0], theta=30, fill_mode="constant",
                                          cval=-1.0, **CHANNELS_LAST)
        assert warped[2, :, 0].tolist() == pytest.approx(           # TF 2.15.1's
            [20.7596, 32.3577, 43.9558, 55.5538, 67.1519, 78.75], abs=1e-3)
        with pytest.raises(ImportError, match="require SciPy"):
            I.apply_affine_transform(image, theta=5, order=3, **CHANNELS_LAST)


def test_flow_from_directory_reads_one_folder_per_class_as_tf(tmp_path, capsys):
    """Three class folders of PNGs (one nested a level down, a .txt file that is skipped):
    the files, classes, batches and validation_split subsets TF 2.15.1's keras gave."""
    from PIL import Image
    rng = np.random.RandomState(0)
    for cls, n in [("dogs", 3), ("cats", 2), ("emus", 1)]:
        (tmp_path / cls / "more").mkdir(parents=True)
        for i in range(n):
            Image.fromarray(rng.randint(0, 256, (5, 7, 3), dtype=np.uint8)).save(
                tmp_path / cls / f"im{i}.png")
        Image.fromarray(rng.randint(0, 256, (6, 4, 3), dtype=np.uint8)).save(
            tmp_path / cls / "more" / "deep.PNG")
        (tmp_path / cls / "notes.txt").write_text("not an image")
    gen = I.ImageDataGenerator(rescale=1 / 255., validation_split=0.5)
    it = gen.flow_from_directory(str(tmp_path), target_size=(4, 6), batch_size=4,
                                 shuffle=False)
    assert it.filenames == ["cats/im0.png", "cats/im1.png", "cats/more/deep.PNG",
                            "dogs/im0.png", "dogs/im1.png", "dogs/im2.png",
                            "dogs/more/deep.PNG", "emus/im0.png", "emus/more/deep.PNG"]
    assert it.classes.tolist() == [0, 0, 0, 1, 1, 1, 1, 2, 2] and len(it) == 3
    assert it.class_indices == {"cats": 0, "dogs": 1, "emus": 2}
    x, y = it[0]
    assert x.shape == (4, 4, 6, 3) and float(x.sum()) == pytest.approx(143.5725555, abs=1e-4)
    assert y.tolist() == [[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0]]
    val = gen.flow_from_directory(str(tmp_path), target_size=(3, 3), color_mode="grayscale",
                                  batch_size=8, shuffle=False, class_mode="sparse",
                                  subset="validation")
    xv, yv = val[0]
    assert val.filenames == ["cats/im0.png", "dogs/im0.png", "dogs/im1.png", "emus/im0.png"]
    assert xv.shape == (4, 3, 3, 1) and float(xv.sum()) == pytest.approx(17.6431389, abs=1e-4)
    assert yv.tolist() == [0, 1, 1, 2]
    train = gen.flow_from_directory(str(tmp_path), target_size=(3, 3), batch_size=8,
                                    shuffle=False, class_mode="binary", subset="training",
                                    classes=["emus", "dogs"])
    xt, yt = train[0]
    assert train.filenames == ["emus/more/deep.PNG", "dogs/im2.png", "dogs/more/deep.PNG"]
    assert yt.tolist() == [0., 1., 1.] and float(xt.sum()) == pytest.approx(41.6235313, abs=1e-4)
    assert capsys.readouterr().out.splitlines() == [
        "Found 9 images belonging to 3 classes.", "Found 4 images belonging to 3 classes.",
        "Found 3 images belonging to 2 classes."]
    with pytest.raises(ValueError, match="Invalid class_mode"):
        gen.flow_from_directory(str(tmp_path), class_mode="one-hot")
