"""Reference-index build: the Ray engine (2 local workers) against the local engine (1 and 2
processes) on the same 200,000 distinct captions, and what the rates imply at web scale.

Corpus: 200,000 distinct captions written as 8 Parquet shards, each a real COCO caption of
``$BINDSPLIT_SHARED/data/coco_mini`` followed by a distinct phrase "next to a ATTRIBUTE OBJECT"
(attributes from the Visual Genome vocabulary in ``data/vg``, objects from a fixed list): every
caption costs a full parse, as in a real corpus, and the corpus has thousands of distinct bindings.

Each engine builds the index of the shard folder in its own child process, as a user would run it
(``ReferenceIndex.from_parquet``). The Ray instance is started before the clock starts (its
start-up is printed apart: a fixed cost a long build amortises). Printed per engine: wall time,
captions/s, captions/s per core (captions/s over the cores it was given), the CPU time of every
process involved and the cores that CPU time amounts to (below the cores given when other work
shares the machine), the driver's time spent adding block results up, and the driver's peak
memory. Memory per distinct binding is measured with ``tracemalloc`` on the build's own tally and
on the index.

The web-scale lines are a projection from the measured per-core rate (linear scaling assumed),
not a measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from _captions import real_captions, shared_data

N_CAPTIONS = 200_000
N_SHARDS = 8
N_TRAIN2017 = 592_000
N_WEB = 400_000_000
CORES_WEB = (64, 512)
TARGET_RATIO = 1.6
TARGET_SECONDS = 180.0
OBJECTS = (
    "fence car bench sign pole building tree umbrella table chair cup bowl plate vase clock "
    "lamp boat truck bus kite bag bottle box door window wall shelf train bike horse dog cat "
    "bird cow sheep elephant pillow"
).split()
#: (engine, workers) of each configuration measured, in the order printed.
CONFIGURATIONS = (("local", 1), ("local", 2), ("ray", 2))


def bench_captions(n: int) -> list[str]:
    """``n`` distinct captions: real COCO captions with a distinct attribute-object phrase."""
    real = [caption.strip().rstrip(".") for caption in real_captions()]
    vocab = shared_data() / "vg" / "attributes_vocab.txt"
    attributes = [a for a in vocab.read_text(encoding="utf-8").split("\n") if a.strip()]
    if len(real) * len(attributes) < n:
        raise ValueError(f"only {len(real) * len(attributes)} distinct captions can be made")
    captions = [
        f"{real[i % len(real)]} next to a {attributes[i // len(real)]} {OBJECTS[i % len(OBJECTS)]}."
        for i in range(n)
    ]
    assert len(set(captions)) == n
    return captions


def write_shards(folder: Path, captions: list[str]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True)
    size = -(-len(captions) // N_SHARDS)
    for shard in range(N_SHARDS):
        part = captions[shard * size : (shard + 1) * size]
        pq.write_table(pa.table({"caption": part}), folder / f"part-{shard:05d}.parquet")


# ---------------------------------------------------------------------------- children
def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")


def _rss_mb(field: str) -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def _cpu_seconds(engine: str) -> float:
    """CPU time of this process and its finished children (the local engine's pool) or, for
    Ray, of every live descendant too (Ray's raylet and workers)."""
    times = os.times()
    if engine == "local":
        return times.user + times.system + times.children_user + times.children_system
    import psutil

    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _bytes_per_binding(index) -> dict:
    """Bytes per distinct binding of the driver's tally (tuple keys) and of the index."""
    pairs = [(b.attribute, b.object, n) for b, n in index.items()]
    tracemalloc.start()
    # fresh string objects, as a build unpickles them from the workers
    tally = {(a.encode().decode(), o.encode().decode()): n for a, o, n in pairs}
    tally_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    from bindsplit_datasets.parsing import Binding

    tracemalloc.start()
    bindings = {Binding(a.encode().decode(), o.encode().decode()): n for a, o, n in pairs}
    index_bytes = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(tally) == len(bindings) == len(index)
    return {"tally": tally_bytes / len(pairs), "index": index_bytes / len(pairs)}


def _child(engine: str, workers: int, folder: str) -> dict:
    """Build the index of ``folder`` with ``engine`` and ``workers``; measure it."""
    from bindsplit_datasets.reference import ReferenceIndex
    from bindsplit_datasets.reference.counting import Tally

    merge = {"seconds": 0.0}
    add = Tally.add

    def timed_add(self, block):
        start = time.perf_counter()
        add(self, block)
        merge["seconds"] += time.perf_counter() - start

    Tally.add = timed_add  # the driver's share of the work: adding block results up
    from bindsplit_datasets.parsing import parse_bindings

    parse_bindings("a red apple")  # the parser's models, loaded before memory is measured
    startup = 0.0
    if engine == "ray":
        import ray

        start = time.perf_counter()
        ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False)
        startup = time.perf_counter() - start
    before_mb = _rss_mb("VmRSS:")
    _reset_peak()
    cpu_before, start = _cpu_seconds(engine), time.perf_counter()
    index = ReferenceIndex.from_parquet(folder, engine=engine, num_proc=workers, progress=False)
    seconds = time.perf_counter() - start
    cpu = _cpu_seconds(engine) - cpu_before
    peak_mb = _rss_mb("VmHWM:")
    if engine == "ray":
        ray.shutdown()
    return {
        "seconds": seconds,
        "startup": startup,
        "cpu_seconds": cpu,
        "merge_seconds": merge["seconds"],
        "driver_growth_mb": max(peak_mb - before_mb, 0.0),
        "n_captions": index.n_captions,
        "n_bindings": len(index),
        "fingerprint": index.fingerprint["digest"],
        "bytes_per_binding": _bytes_per_binding(index),
    }


def _run_child(engine: str, workers: int, folder: Path) -> dict:
    completed = subprocess.run(
        [sys.executable, __file__, "--child", engine, str(workers), str(folder)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------- report
def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def main(n_captions: int = N_CAPTIONS) -> None:
    captions = bench_captions(n_captions)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "shards"
        write_shards(folder, captions)
        runs = {(engine, n): _run_child(engine, n, folder) for engine, n in CONFIGURATIONS}
    assert len({run["fingerprint"] for run in runs.values()}) == 1, "engines disagree"
    rate = {key: n_captions / run["seconds"] for key, run in runs.items()}
    per_core = {key: rate[key] / key[1] for key in runs}
    obtained = {key: run["cpu_seconds"] / run["seconds"] for key, run in runs.items()}
    first = runs[CONFIGURATIONS[0]]

    print(
        f"Reference-index build: {n_captions:,} distinct captions (real COCO captions + a "
        f"distinct attribute phrase) in {N_SHARDS} Parquet shards; {first['n_bindings']:,} "
        "distinct bindings; identical index from every engine"
    )
    names = {key: f"{key[0]} x{key[1]}" for key in runs}
    print(f"{'measure':<40}" + "".join(f"{names[key]:>14}" for key in runs))
    rows = [
        ("build time (s)", lambda k: f"{runs[k]['seconds']:.1f}"),
        ("throughput (captions/s)", lambda k: f"{rate[k]:,.0f}"),
        ("captions/s per core given", lambda k: f"{per_core[k]:,.0f}"),
        ("CPU time, all processes (s)", lambda k: f"{runs[k]['cpu_seconds']:.1f}"),
        ("cores obtained (CPU time / wall time)", lambda k: f"{obtained[k]:.2f}"),
        ("captions per CPU-second", lambda k: f"{n_captions / runs[k]['cpu_seconds']:,.0f}"),
        ("driver: adding results up (s)", lambda k: f"{runs[k]['merge_seconds']:.2f}"),
        ("driver: peak memory growth (MB)", lambda k: f"{runs[k]['driver_growth_mb']:.0f}"),
        ("start-up before the build (s)", lambda k: f"{runs[k]['startup']:.1f}"),
    ]
    for label, cell in rows:
        print(f"{label:<40}" + "".join(f"{cell(key):>14}" for key in runs))
    print()
    ray_key, one, two = ("ray", 2), ("local", 1), ("local", 2)
    with_startup = n_captions / (runs[ray_key]["seconds"] + runs[ray_key]["startup"])
    print(
        f"speed-up, Ray 2 workers over local 1 process: {rate[ray_key] / rate[one]:.2f}x "
        f"({with_startup / rate[one]:.2f}x counting Ray's start-up)"
    )
    print(
        f"speed-up, local 2 processes over 1: {rate[two] / rate[one]:.2f}x (target >= "
        f"{TARGET_RATIO}x); COCO train2017 ({N_TRAIN2017:,} captions) with 2 processes: "
        f"{N_TRAIN2017 / rate[two]:.0f} s extrapolated (target <= {TARGET_SECONDS:.0f} s)"
    )
    if min(obtained[key] / key[1] for key in runs) < 0.9:
        print(
            "  the cores were shared with other work (cores obtained below the cores given): "
            "wall-time rates understate what free cores do; captions per CPU-second does not"
        )
    bpb = first["bytes_per_binding"]
    print(
        f"memory per distinct binding: {bpb['tally']:.0f} B in the driver's tally, "
        f"{bpb['index']:.0f} B in the loaded index (plus 8 B per distinct caption for the "
        "leakage guard's digests)"
    )
    print()
    print(
        f"PROJECTION (not a measurement) for {N_WEB / 1e6:,.0f} million captions, from the "
        "measured rates per core given (wall clock) and per CPU-second (what a free core "
        "does), assuming linear scaling and shards already near the workers:"
    )
    cpu_rate = {key: n_captions / run["cpu_seconds"] for key, run in runs.items()}
    for key in (one, ray_key):
        for label, per in (("per core given", per_core[key]), ("per CPU-second", cpu_rate[key])):
            cells = ", ".join(
                f"{cores} cores {_duration(N_WEB / (per * cores))}" for cores in CORES_WEB
            )
            print(f"  {names[key]}, {per:,.0f} captions/s {label}: {cells}")
    merge_per_caption = runs[ray_key]["merge_seconds"] / n_captions
    print(
        f"  the Ray driver adds results up at {1 / merge_per_caption:,.0f} captions/s "
        f"({_duration(N_WEB * merge_per_caption)} of driver time for {N_WEB / 1e6:,.0f} million, "
        f"overlapping the workers); its caption digests would take "
        f"{N_WEB * 8 / 2**30:.1f} GiB if all captions are distinct, more than the 2 GiB an "
        "index file's footer holds (about 268 million distinct captions)"
    )


def _child_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=("local", "ray"))
    parser.add_argument("workers", type=int)
    parser.add_argument("folder")
    args = parser.parse_args(argv)
    print(json.dumps(_child(args.engine, args.workers, args.folder)))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child_main(sys.argv[2:])
    else:
        options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        options.add_argument("--captions", type=int, default=N_CAPTIONS, help="corpus size")
        main(options.parse_args().captions)
