"""The detector, one module per stage:

    locate     fiducial markers -> homography (sheet mm -> image px), tracking, bumps
    workarea   which part of the sheet the top-down working image shows, px <-> mm
    foreground top-down working image, illumination, difference to the empty map
    bases      discs of base size in the foreground
    identify   owner colour and ring-tag id of each base
    occlusion  hands and arms: large unexplained foreground
    pipeline   the stages in order, with timings -> Detection
    framing    pixels per base, and whether turning or moving the camera gives more
"""

from .pipeline import Detection, Detector

__all__ = ["Detection", "Detector"]
