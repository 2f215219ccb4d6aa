"""`tf.image` -- the names of TensorFlow 1.15's tf.image namespace (TF's generated
api/_v1/image/__init__.py), gathered from:

  sandbox/ops/image_ops.py         flips, transpose, rot90, crops and pads, convert_image_dtype,
                                   per_image_standardization, adjust_gamma, total_variation,
                                   image_gradients, psnr, ssim, sobel_edges,
                                   non_max_suppression, draw_bounding_boxes
  sandbox/ops/image_resize_ops.py  resize_images (= resize), resize_bilinear ..., ResizeMethod,
                                   crop_and_resize
  sandbox/ops/image_color_ops.py   brightness, contrast, saturation, hue, HSV, YIQ, YUV,
                                   grayscale
  sandbox/ops/image_codec_ops.py   decode_png, encode_png, decode_jpeg ... (Pillow)
  sandbox/ops/image_quality_ops.py ssim_multiscale, adjust_jpeg_quality, random_jpeg_quality
  sandbox/ops/nms_ops.py           non_max_suppression_with_scores (Soft-NMS),
                                   non_max_suppression_padded, non_max_suppression_overlaps,
                                   combined_non_max_suppression
  sandbox/ops/bounding_box_ops.py  sample_distorted_bounding_box (TF's random windows)
  sandbox/ops/glimpse_ops.py       extract_glimpse, extract_patches
  sandbox/ops/space_ops.py         extract_image_patches

    image = tf.image.decode_png(tf.read_file("cat.png"), channels=3)
    image = tf.image.convert_image_dtype(image, tf.float32)       # [0, 1] floats
    image = tf.image.resize_images(image, [64, 64])
    image = tf.image.random_flip_left_right(image)

random_crop is tf.random_crop. JPEG pixels (decode_jpeg, adjust_jpeg_quality) come from
Pillow's codec and may differ from TF's libjpeg-turbo by a few levels.
"""
from ..ops.bounding_box_ops import sample_distorted_bounding_box  # noqa: F401
from ..ops.glimpse_ops import extract_glimpse, extract_patches  # noqa: F401
from ..ops.image_codec_ops import (  # noqa: F401
    decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png,
    encode_jpeg, encode_png, extract_jpeg_shape, is_jpeg)
from ..ops.image_color_ops import (  # noqa: F401
    adjust_brightness, adjust_contrast, adjust_hue, adjust_saturation, grayscale_to_rgb,
    hsv_to_rgb, random_brightness, random_contrast, random_hue, random_saturation,
    rgb_to_grayscale, rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, yiq_to_rgb, yuv_to_rgb)
from ..ops.image_ops import (  # noqa: F401
    adjust_gamma, central_crop, convert_image_dtype, crop_to_bounding_box, draw_bounding_boxes,
    flip_left_right, flip_up_down, image_gradients, non_max_suppression, pad_to_bounding_box,
    per_image_standardization, psnr, random_flip_left_right, random_flip_up_down,
    resize_image_with_crop_or_pad, resize_with_crop_or_pad, rot90, sobel_edges, ssim,
    total_variation, transpose_image)
from ..ops.image_quality_ops import (  # noqa: F401
    adjust_jpeg_quality, random_jpeg_quality, ssim_multiscale)
from ..ops.image_resize_ops import (  # noqa: F401
    ResizeMethod, crop_and_resize, resize, resize_area, resize_bicubic, resize_bilinear,
    resize_image_with_pad, resize_images, resize_nearest_neighbor)
from ..ops.nms_ops import (  # noqa: F401
    combined_non_max_suppression, non_max_suppression_overlaps, non_max_suppression_padded,
    non_max_suppression_with_scores)
from ..ops.random_extra_ops import random_crop  # noqa: F401
from ..ops.space_ops import extract_image_patches  # noqa: F401

transpose = transpose_image

__all__ = ["ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
           "adjust_jpeg_quality", "adjust_saturation", "central_crop",
           "combined_non_max_suppression", "convert_image_dtype", "crop_and_resize",
           "crop_to_bounding_box", "decode_and_crop_jpeg", "decode_bmp", "decode_gif",
           "decode_image", "decode_jpeg", "decode_png", "draw_bounding_boxes", "encode_jpeg",
           "encode_png", "extract_glimpse", "extract_image_patches", "extract_jpeg_shape",
           "extract_patches", "flip_left_right", "flip_up_down", "grayscale_to_rgb", "hsv_to_rgb",
           "image_gradients", "is_jpeg", "non_max_suppression", "non_max_suppression_overlaps",
           "non_max_suppression_padded", "non_max_suppression_with_scores", "pad_to_bounding_box",
           "per_image_standardization", "psnr", "random_brightness", "random_contrast",
           "random_crop", "random_flip_left_right", "random_flip_up_down", "random_hue",
           "random_jpeg_quality", "random_saturation", "resize", "resize_area", "resize_bicubic",
           "resize_bilinear", "resize_image_with_crop_or_pad", "resize_image_with_pad",
           "resize_images", "resize_nearest_neighbor", "resize_with_crop_or_pad",
           "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv", "rot90",
           "sample_distorted_bounding_box", "sobel_edges", "ssim", "ssim_multiscale",
           "total_variation", "transpose", "transpose_image", "yiq_to_rgb", "yuv_to_rgb"]
