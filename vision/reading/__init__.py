"""Reading the hand: geometry of the photo, layout of the tiles, constraint-aware decoding (see vision.hand_reader)."""
