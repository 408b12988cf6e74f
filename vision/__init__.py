"""Tile recognition: detection and classification (ONNX), synthetic scenes, hand assembly, training recipes.

Serving code here needs only numpy, OpenCV and onnxruntime; training code (``vision.train``) adds torch/ultralytics.
"""
