"""The table core: rules engines, game sessions and storage.

Pure Python. Nothing in this package imports cv2, serial or flask: vision,
firmware_bridge and web depend on it, never the other way round.
"""
