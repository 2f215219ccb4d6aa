"""keras.engine -- mirrors TensorFlow 1.15's python/keras/engine/: the Layer base class, the
Model (compile/fit/evaluate/predict) and Sequential."""
