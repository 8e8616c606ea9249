"""The cost of the content hash the build cache keys on (load/sourcefiles.hasher), per
candidate, on inputs the size of what it hashes: a dictionary text, a source file, a page.

    python bench/hashes.py
"""

from __future__ import annotations

import hashlib
import timeit

SIZES = {"60 B (a key)": 60, "2 KB (a source)": 2_000, "75 KB (a page)": 75_000}
CANDIDATES = {"blake2b-128": lambda data: hashlib.blake2b(data, digest_size=16).hexdigest(),
              "sha256": lambda data: hashlib.sha256(data).hexdigest(),
              "sha1": lambda data: hashlib.sha1(data).hexdigest(),
              "md5": lambda data: hashlib.md5(data).hexdigest()}


def main() -> None:
    print("| input | " + " | ".join(CANDIDATES) + " |")
    print("|---|" + "---|" * len(CANDIDATES))
    for label, size in SIZES.items():
        data = ("頁 page " * size)[:size].encode("utf-8")[:size]
        number = max(20, 2_000_000 // size)
        cells = [min(timeit.repeat(lambda f=f, data=data: f(data), number=number, repeat=5))
                 / number
                 for f in CANDIDATES.values()]
        print(f"| {label} | " + " | ".join(f"{cell * 1e6:.2f} µs" for cell in cells) + " |")


if __name__ == "__main__":
    main()
