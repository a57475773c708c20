"""Physically based test frames: Blender's Cycles renders the project's own
printables on a table (``spec.py`` decides the scene, ``blender_job.py`` builds and
renders it inside Blender), and ``webcam.py`` turns a render into what a webcam
delivers (lens, auto exposure and white balance, noise, MJPEG)."""
