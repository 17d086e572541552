#!/usr/bin/env python3
"""A believable ~1 GB game for `make bench`: levels (scene JSON, plists and shaders that compress; textures, audio
and video that are already compressed), shared assets with several tags, a tutorial, untagged app files and a
folder of 20,000 small files, with its odrpack.yml. Deterministic: the same seed gives the same bytes.

Usage: make_corpus.py OUTPUT_DIR [SCALE]   (SCALE 1.0 is about 1 GB)
"""
import os
import sys

from corpus_kit import Corpus, output_folder, write_manifest

out = output_folder(__doc__)
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
corpus = Corpus(os.path.join(out, "Resources"), 61)
write, png, m4a, mp4, text, rng = corpus.write, corpus.png, corpus.m4a, corpus.mp4, corpus.text, corpus.rng


def mb(x):
    return int(x * scale * 1_220_000)


entries, levels = [], []
for world in range(1, 5):
    for level in range(1, 11):
        tag = f"w{world}l{level}"
        levels.append(tag)
        base = f"Levels/World{world}/Level{level:02d}"
        write(f"{base}/scene.json", text(mb(0.25), "json"))
        write(f"{base}/data.plist", text(mb(0.06), "plist"))
        for shader in range(3):
            write(f"{base}/Shaders/effect{shader}.metal", text(mb(0.02), "shader"))
        for texture in range(4):
            write(f"{base}/Textures/tex{texture}.png", png(mb(2.6)))
        write(f"{base}/Audio/music.m4a", m4a(mb(3.5)))
        if level % 2 == 0:
            write(f"{base}/Video/cutscene.mp4", mp4(mb(6)))
        entries.append((base, [tag]))
# Shared assets: per world, and between neighbouring levels.
for world in range(1, 5):
    for item in range(6):
        write(f"Shared/World{world}/tileset{item}.png", png(mb(2.0)))
    entries.append((f"Shared/World{world}", [f"w{world}l{level}" for level in range(1, 11)]))
    for level in range(1, 10, 2):
        write(f"Shared/Bridges/w{world}-{level}.png", png(mb(1.5)))
        entries.append((f"Shared/Bridges/w{world}-{level}.png", [f"w{world}l{level}", f"w{world}l{level + 1}"]))
for item in range(8):
    write(f"Tutorial/step{item}.json", text(mb(0.1), "json"))
    write(f"Tutorial/step{item}.png", png(mb(1.5)))
write("Tutorial/intro.mp4", mp4(mb(12)))
entries.append(("Tutorial", ["tutorial"]))
# 20,000 small files: an item catalog.
for item in range(20_000):
    write(f"Catalog/Items/item{item:05d}.json", text(int(1200 * max(scale, 0.05)) + rng.randrange(800), "json"))
entries.append(("Catalog", ["catalog"]))
# Untagged: stay in the app.
for item in range(20):
    write(f"UI/screen{item}.png", png(mb(0.5)))
write("UI/Localizable.strings", text(mb(0.2), "json"))
write_manifest(out, "make_corpus.py", "com.example.benchgame", entries,
               "initial-install: [tutorial, w1l1]\nprefetch-order: [w1l2, w1l3, catalog]\n")
