#!/usr/bin/env python3
"""A media-heavy game for `make bench` (issue #19's shape): about 450 MB in about 20,000 files and 35 packs, about
15% of the bytes text that compresses (scene JSON, small item JSON, shaders), the rest PNG sprites and textures,
music and video that do not. Deterministic: the same seed gives the same bytes.

Usage: make_media_corpus.py OUTPUT_DIR [SCALE]   (SCALE 1.0 is about 450 MB)
"""
import os
import sys

from corpus_kit import Corpus, output_folder, write_manifest

out = output_folder(__doc__)
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
corpus = Corpus(os.path.join(out, "Resources"), 67)


def kb(x):
    return max(64, int(x * scale * 1000))


entries = []
for level in range(1, 31):
    tag = f"l{level:02d}"
    base = f"Levels/Level{level:02d}"
    corpus.write(f"{base}/scene.json", corpus.text(kb(1300), "json"))
    for shader in range(3):
        corpus.write(f"{base}/Shaders/effect{shader}.metal", corpus.text(kb(40), "shader"))
    for sprite in range(400):
        corpus.write(f"{base}/Sprites/sprite{sprite:03d}.png", corpus.png(kb(18)))
    for item in range(250):
        corpus.write(f"{base}/Items/item{item:03d}.json", corpus.text(kb(3), "json"))
    corpus.write(f"{base}/Audio/music.m4a", corpus.m4a(kb(2500)))
    if level % 3 == 0:
        corpus.write(f"{base}/Video/cutscene.mp4", corpus.mp4(kb(4000)))
    entries.append((base, [tag]))
# Assets shared by every level, and bridges between neighbouring levels.
for item in range(10):
    corpus.write(f"Shared/Common/atlas{item}.png", corpus.png(kb(2000)))
entries.append(("Shared/Common", [f"l{level:02d}" for level in range(1, 31)]))
for level in (5, 10, 20):
    corpus.write(f"Shared/Bridges/bridge{level:02d}.png", corpus.png(kb(1500)))
    entries.append((f"Shared/Bridges/bridge{level:02d}.png", [f"l{level:02d}", f"l{level + 1:02d}"]))
for item in range(20):
    corpus.write(f"Tutorial/step{item:02d}.json", corpus.text(kb(20), "json"))
corpus.write("Tutorial/intro.mp4", corpus.mp4(kb(29000)))  # a ~30 MB pack: the one make bench edits
entries.append(("Tutorial", ["tutorial"]))
# Untagged: stay in the app.
for item in range(20):
    corpus.write(f"UI/screen{item:02d}.png", corpus.png(kb(300)))
write_manifest(out, "make_media_corpus.py", "com.example.mediagame", entries,
               "initial-install: [tutorial, l01]\nprefetch-order: [l02, l03]\n")
