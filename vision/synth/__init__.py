"""Synthetic scenes: realistic camera frames of the printed map with bases, figures and
hands on it, with the ground truth. Seeded, so any failure replays exactly."""

from .scene import Base, Conditions, Hand, Scene, SceneRenderer, random_scene

__all__ = ["Base", "Conditions", "Hand", "Scene", "SceneRenderer", "random_scene"]
