"""Camera card recognition: the fallback card source when no reader works (OpenCV).

Pipeline, one module per step:

- :mod:`~drivers.camera.detect`: bright card-shaped quadrilaterals against the felt;
- :mod:`~drivers.camera.geometry` / :mod:`~drivers.camera.locate`: perspective rectification to
  a canonical portrait card;
- :mod:`~drivers.camera.glyphs`: the corner index's rank and suit marks, ink colour, structure;
- :mod:`~drivers.camera.calibration`: the house deck's templates and limits, stored and chosen;
  :mod:`~drivers.camera.calibrate` learns them from card images, which
  :mod:`~drivers.camera.live_calibration` captures from the table camera card by card (frames
  from :mod:`~drivers.camera.frame_feed`, the card lying still: :mod:`~drivers.camera.still_card`);
- :mod:`~drivers.camera.shapes`: a deck-independent shape classifier (nearest prototypes of
  many print styles), shipped as ``models/shapes.npz``; trained by
  :mod:`~drivers.camera.training` on synthetic decks: designs from :mod:`~drivers.camera.decks`,
  their marks from :mod:`~drivers.camera.deck_marks`, printed by :mod:`~drivers.camera.deck_print`;
- :mod:`~drivers.camera.reader`: templates (:mod:`~drivers.camera.templates`) and shape
  classifier joined under a certainty rule ("unknown", never a guess; its limits and one mark's
  reading: :mod:`~drivers.camera.certainty`), giving a :mod:`~drivers.camera.reading`; cards
  without a clean outline are found by their index marks (:mod:`~drivers.camera.search`);
- :mod:`~drivers.camera.vote`: tracks over frames, a card is reported once stable;
- :mod:`~drivers.camera.frames` / :mod:`~drivers.camera.source`: ``camera://`` and ``file://``
  sources implementing :class:`dealer_assist.source.CardSource`;
- :mod:`~drivers.camera.labels` / :mod:`~drivers.camera.evaluate`: measurement on labelled photos.

See docs/CAMERA.md for the design, the measured figures and the known failures.
"""
