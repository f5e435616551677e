"""Reference-index build: the Ray engine (2 local workers) against the local engine (1 and 2
processes) on the same 200,000 distinct captions, the index format at 300,000 distinct captions,
peak memory per stage at 2 million distinct captions, and what they imply at web scale.

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

Per stage (summed over workers: read, parse, count; the driver: combine, merge; then write)
the seconds come from the build record. The format section builds an index of 300,000 distinct
captions' digests, prints its footer size and checks that a planted benchmark caption is found.
The memory section runs the digest pipeline (partition, merge, write, lookup) on 2,000,000
distinct generated captions in a child process and prints the peak memory of each stage.
``--quick`` runs everything on far fewer captions.

Relation triples (SPEC section 1b) are counted in the same pass as the bindings; the triples
section builds the same shards with the local engine and one process twice, with triples
(``relations=True``, the default) and without (``relations=False``, an attribute-only index), and
prints the ratio of the two build times side by side (target <= 1.5x), best of two alternated
runs each (one in quick mode), and the ratio of their CPU time (what a shared machine does not
distort).

The web-scale lines are a projection from the measured per-core rate (linear scaling assumed),
not a measurement. A full run writes the figures the README quotes (the engines' table, the
per-core rate and what it projects) into ``docs/benchmarks.md`` (``perf/figures.py``).
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
from figures import Figures

N_CAPTIONS = 200_000
N_FORMAT = 300_000
N_MEMORY = 2_000_000
N_BILLION = 1_000_000_000
N_TARGET = 2_000_000_000
QUICK = {"captions": 4_000, "format": 30_000, "memory": 100_000}
N_SHARDS = 8
N_TRAIN2017 = 592_000
N_WEB = 400_000_000
CORES_WEB = (64, 512)
TARGET_RATIO = 1.6
TARGET_RAY = 1.7
TARGET_SECONDS = 180.0
TARGET_TRIPLES = 1.5
#: The figures of this script the README quotes (written by a full run).
FIGURES = Figures("bench_reference.py")
#: How the README names each engine configuration.
ENGINE_NAMES = {("local", 1): "local, 1 process", ("local", 2): "local, 2 processes"}
ENGINE_NAMES[("ray", 2)] = "Ray, 2 workers"
OBJECTS = (
    "fence car bench sign pole building tree umbrella table chair cup bowl plate vase clock "
    "lamp boat truck bus kite bag bottle box door window wall shelf train bike horse dog cat "
    "bird cow sheep elephant pillow"
).split()
#: Stages of a build, as the build record times them (then the write, timed here).
STAGES = ("read", "parse", "count", "combine", "merge", "write")
WORKER_STAGES = ("read", "parse", "count")
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


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the local engine's pool)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


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


def _child(engine: str, workers: int, folder: str, relations: bool = True) -> dict:
    """Build the index of ``folder`` with ``engine`` and ``workers`` (``relations``: with the
    relation triples); measure it."""
    from bindsplit_datasets.parsing import parse_bindings
    from bindsplit_datasets.reference import ReferenceIndex

    parse_bindings("a red apple")  # the parser's models, loaded before memory is measured
    startup = 0.0
    if engine == "ray":
        import ray

        start = time.perf_counter()
        ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False)
        startup = time.perf_counter() - start
    before_mb = _rss_mb("VmRSS:")
    _reset_peak()
    cpu_before, start = _cpu_seconds(), time.perf_counter()
    index = ReferenceIndex.from_parquet(
        folder, engine=engine, num_proc=workers, progress=False, relations=relations
    )
    seconds = time.perf_counter() - start
    stages = index.build["seconds"]
    cpu = _cpu_seconds() - cpu_before
    if engine == "ray":  # plus the actors' CPU time, reported with each unit
        cpu += stages["cpu"]
    peak_mb = _rss_mb("VmHWM:")
    if engine == "ray":
        ray.shutdown()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        index.save(Path(tmp) / "index.parquet")
        write = time.perf_counter() - start
    return {
        "seconds": seconds - stages.get("startup", 0.0),
        "startup": startup + stages.get("startup", 0.0),
        "cpu_seconds": cpu,
        "stages": {**index.build["seconds"], "write": write},
        "driver_growth_mb": max(peak_mb - before_mb, 0.0),
        "n_captions": index.n_captions,
        "n_bindings": len(index),
        "n_relations": index.n_relations,
        "fingerprint": index.fingerprint["digest"],
        "content": index.content_sha256(),
        "bytes_per_binding": _bytes_per_binding(index),
    }


def _memory_child(n: int) -> dict:
    """Peak memory (MB over the start) of each digest stage for ``n`` distinct captions."""
    import numpy as np

    from bindsplit_datasets.parsing import Binding
    from bindsplit_datasets.reference import ReferenceIndex, caption_digest
    from bindsplit_datasets.reference import digests as digest_module
    from bindsplit_datasets.reference.digests import DigestPartitions

    digest_module.IN_MEMORY_DIGESTS = 0  # the on-disk path a web-scale build takes
    planted = "a red apple on the grass"
    texts = (f"generated caption {i} of a {OBJECTS[i % len(OBJECTS)]}" for i in range(n))
    result: dict = {"n": n}
    with tempfile.TemporaryDirectory() as tmp:
        base = _rss_mb("VmRSS:")
        _reset_peak()
        start = time.perf_counter()
        partitions = DigestPartitions(Path(tmp) / "digests")
        unit: list[int] = [caption_digest(planted)]
        for text in texts:  # units of 8,192 captions, as the workers send them
            unit.append(caption_digest(text))
            if len(unit) == 8192:
                partitions.append(np.unique(np.array(unit, dtype=np.uint64)))
                unit = []
        partitions.append(np.unique(np.array(unit, dtype=np.uint64)))
        result["partition"] = (_rss_mb("VmHWM:") - base, time.perf_counter() - start)
        for stage, action in (
            ("merge", lambda: partitions.merge(Path(tmp))),
            ("write", None),
            ("lookup", None),
        ):
            base = _rss_mb("VmRSS:")
            _reset_peak()
            start = time.perf_counter()
            if stage == "merge":
                merged = action()
            elif stage == "write":
                index = ReferenceIndex(
                    {Binding("red", "apple"): 1},
                    caption_digests=merged,
                    min_count=1,
                    n_captions=n + 1,
                    n_skipped=0,
                    corpus={"kind": "bench"},
                )
                path = index.save(Path(tmp) / "index.parquet")
            else:
                loaded = ReferenceIndex.load(path)
                found = loaded.caption_overlap([planted, "not in the corpus at all"])
                assert found == 1, found
                single = time.perf_counter()
                assert loaded.contains_caption(planted)
                result["single_lookup_ms"] = 1000 * (time.perf_counter() - single)
            result[stage] = (_rss_mb("VmHWM:") - base, time.perf_counter() - start)
        result["n_digests"] = merged.size
        result["file_mb"] = path.stat().st_size / 2**20
    return result


def _format_check(n: int) -> dict:
    """An index of ``n`` distinct captions' digests: footer size, planted caption found."""
    import numpy as np
    import pyarrow.parquet as pq

    from bindsplit_datasets.parsing import Binding
    from bindsplit_datasets.reference import ReferenceIndex, caption_digest

    benchmark = "A red apple on the grass."
    captions = [f"caption {i} of a {OBJECTS[i % len(OBJECTS)]}" for i in range(n - 1)]
    captions.insert(n // 2, benchmark)
    digests = np.array([caption_digest(c) for c in captions], dtype=np.uint64)
    index = ReferenceIndex(
        {Binding("red", "apple"): 1},
        caption_digests=digests,
        min_count=1,
        n_captions=n,
        n_skipped=0,
        corpus={"kind": "bench"},
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = index.save(Path(tmp) / "index.parquet")
        footer = pq.read_metadata(path).serialized_size
        loaded = ReferenceIndex.load(path)
        start = time.perf_counter()
        found = loaded.contains_caption("a red apple on the grass")
        lookup = time.perf_counter() - start
    assert found and loaded.n_caption_digests == n
    return {"n": n, "footer": footer, "found": found, "lookup_ms": 1000 * lookup}


def _run_child(*args: str) -> dict:
    completed = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True
    )
    if completed.returncode:
        raise RuntimeError(f"child {args} failed:\n{completed.stderr}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------- report
def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def main(n_captions: int, n_format: int, n_memory: int, rounds: int = 2) -> None:
    captions = bench_captions(n_captions)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "shards"
        write_shards(folder, captions)
        runs = {(e, n): _run_child("engine", e, str(n), str(folder)) for e, n in CONFIGURATIONS}
        # alternated, best of ``rounds`` each: the two builds see the same machine load
        measured = [
            tuple(_run_child("engine", "local", "1", str(folder), flag) for flag in ("0", "1"))
            for _ in range(rounds)
        ]
        bare = min((pair[0] for pair in measured), key=lambda run: run["seconds"])
        with_triples = min((pair[1] for pair in measured), key=lambda run: run["seconds"])
    fingerprints = {run["fingerprint"] for run in runs.values()}
    contents = {run["content"] for run in runs.values()}
    assert len(fingerprints) == 1 and len(contents) == 1, "engines disagree"
    rate = {key: n_captions / run["seconds"] for key, run in runs.items()}
    per_core = {key: rate[key] / key[1] for key in runs}
    obtained = {key: run["cpu_seconds"] / run["seconds"] for key, run in runs.items()}
    first = runs[CONFIGURATIONS[0]]
    busy = {
        key: sum(run["stages"][stage] for stage in WORKER_STAGES) / run["seconds"]
        for key, run in runs.items()
    }

    print(
        f"Reference-index build: {n_captions:,} distinct captions (real COCO captions + a "
        f"distinct attribute phrase) in {N_SHARDS} Parquet shards; {first['n_bindings']:,} "
        f"distinct bindings; the same index from every engine: fingerprint "
        f"{fingerprints.pop()}, content SHA-256 {contents.pop()[:16]}"
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
        ("workers busy (worker time / wall time)", lambda k: f"{busy[k]:.2f}"),
        *(
            (
                f"stage {stage} (s{', workers summed' if stage in WORKER_STAGES else ''})",
                lambda k, stage=stage: f"{runs[k]['stages'][stage]:.2f}",
            )
            for stage in STAGES
        ),
        ("driver: peak memory growth (MB)", lambda k: f"{runs[k]['driver_growth_mb']:.0f}"),
        ("start-up: Ray, actors, models (s)", lambda k: f"{runs[k]['startup']:.1f}"),
    ]
    for label, cell in rows:
        print(f"{label:<40}" + "".join(f"{cell(key):>14}" for key in runs))
    print()
    ray_key, one, two = ("ray", 2), ("local", 1), ("local", 2)
    with_startup = n_captions / (runs[ray_key]["seconds"] + runs[ray_key]["startup"])
    print(
        f"speed-up, Ray 2 workers over local 1 process: {rate[ray_key] / rate[one]:.2f}x "
        f"excluding start-up (target >= {TARGET_RAY}x on a quiet 2-core machine), "
        f"{with_startup / rate[one]:.2f}x including Ray's start-up"
    )
    print(
        f"speed-up, local 2 processes over 1: {rate[two] / rate[one]:.2f}x (target >= "
        f"{TARGET_RATIO}x); COCO train2017 ({N_TRAIN2017:,} captions) with 2 processes: "
        f"{N_TRAIN2017 / rate[two]:.0f} s extrapolated (target <= {TARGET_SECONDS:.0f} s)"
    )
    FIGURES.quote("reference-captions", f"{n_captions:,}", "distinct captions indexed")
    FIGURES.quote("reference-engines", _engine_table(runs, rate), "the engines side by side")
    if min(obtained[key] / key[1] for key in runs) < 0.9:
        print(
            "  the cores were shared with other work (cores obtained below the cores given): "
            "wall-time rates understate what free cores do; captions per CPU-second does not, "
            "and 'workers busy' shows how many workers the engine kept working"
        )
    _triples(with_triples, bare)
    bpb = first["bytes_per_binding"]
    print(
        f"memory per distinct binding: {bpb['tally']:.0f} B in the driver's tally, "
        f"{bpb['index']:.0f} B in the loaded index (caption digests stay on disk)"
    )
    print()
    fmt = _format_check(n_format)
    print(
        f"Index format bindsplit-reference/3 at {fmt['n']:,} distinct captions: Parquet footer "
        f"{fmt['footer']:,} B (limit 1 MiB: {'ok' if fmt['footer'] < 2**20 else 'EXCEEDED'}); "
        f"planted benchmark caption found: {fmt['found']} ({fmt['lookup_ms']:.1f} ms lookup)"
    )
    assert fmt["footer"] < 2**20 and fmt["found"]
    memory = _run_child("memory", str(n_memory))
    print(
        f"Peak memory per stage of the caption digests, {memory['n']:,} distinct generated "
        f"captions (child process, MB above the stage's start; index file "
        f"{memory['file_mb']:.0f} MB; one-caption lookup {memory['single_lookup_ms']:.0f} ms):"
    )
    for stage in ("partition", "merge", "write", "lookup"):
        mb, seconds = memory[stage]
        print(f"  {stage:<10} {mb:8.1f} MB {seconds:8.1f} s")
    _projection(runs, rate, per_core, n_captions, memory, bpb, first["n_bindings"])


def _engine_table(runs: dict, rate: dict) -> str:
    """The README's table: per engine its wall time, speed-up over local x1, cores obtained."""
    one = ("local", 1)
    lines = [
        "| engine | wall time | speed-up over local x1 | cores obtained |",
        "|---|---|---|---|",
    ]
    for key, run in runs.items():
        wall, speedup = f"{run['seconds']:.1f} s", f"{rate[key] / rate[one]:.2f}x"
        if key[0] == "ray":  # its start-up apart, and included
            share = run["seconds"] / (run["seconds"] + run["startup"])
            wall += f" + {run['startup']:.1f} s start-up"
            speedup += f" ({rate[key] * share / rate[one]:.2f}x with start-up)"
        obtained = run["cpu_seconds"] / run["seconds"]
        lines.append(f"| {ENGINE_NAMES[key]} | {wall} | {speedup} | {obtained:.2f} |")
    return "\n".join(lines)


def _projection(runs, rate, per_core, n_captions, memory, bpb, n_bindings) -> None:
    ray_key, one = ("ray", 2), ("local", 1)
    names = {key: f"{key[0]} x{key[1]}" for key in runs}
    cpu_rate = {key: n_captions / run["cpu_seconds"] for key, run in runs.items()}
    print()
    print(
        f"PROJECTION (not a measurement) for {N_TARGET / 1e9:.0f} billion distinct captions, "
        "assuming linear scaling, shards near the workers, and every caption distinct:"
    )
    for key in (one, ray_key):
        for label, per in (("per core given", per_core[key]), ("per CPU-second", cpu_rate[key])):
            cells = ", ".join(
                f"{cores} cores {_duration(N_BILLION / (per * cores))}" for cores in CORES_WEB
            )
            print(f"  {names[key]}, {per:,.0f} captions/s {label}: per billion: {cells}")
    per = per_core[one]
    FIGURES.quote("reference-core-rate", f"{per:,.0f}", "captions a second a core parses")
    for cores in (64, 256):
        FIGURES.quote(
            f"reference-billion-{cores}",
            _duration(N_BILLION / (per * cores)),
            f"a billion captions on {cores} cores (projected)",
        )
    combine = runs[ray_key]["stages"]["combine"] / n_captions
    FIGURES.quote(
        "reference-combine-rate",
        f"{1e-6 / combine:.1f} million",
        "captions a second the driver adds up",
    )
    FIGURES.quote(
        "reference-combine-cores",
        f"{1 / combine / per:,.0f}",
        "cores whose captions the driver keeps up with",
    )
    print(
        f"  driver combine at {1 / combine:,.0f} captions/s: {_duration(N_TARGET * combine)} "
        "of driver time, overlapping the workers"
    )
    scale = N_TARGET / memory["n"]
    partition_mb = memory["partition"][0]
    merge_mb = 8 * N_TARGET / 256 / 2**20
    print(
        f"  memory: partition {partition_mb:.0f} MB (constant: one unit's digests), merge "
        f"{merge_mb:,.0f} MB (one of 256 partitions, 8 B x captions / 256), write and lookup "
        f"{8 * 2**22 / 2**20:.0f} MB (one row group of 4 Mi digests), counts "
        f"{bpb['tally'] * n_bindings / 2**20:.0f} MB for {n_bindings:,} distinct bindings "
        f"({bpb['tally']:.0f} B each: 100 million distinct bindings would take "
        f"{bpb['tally'] * 1e8 / 2**30:.0f} GiB)"
    )
    print(
        f"  disk: {8 * N_TARGET / 2**30:.0f} GiB of digest partitions during the build, as much "
        f"again for the merged digests and the index file ({memory['file_mb'] * scale / 2**10:.0f}"
        f" GiB measured-scaled); merge time {memory['merge'][1] * scale / 60:.0f} min, "
        f"partition {memory['partition'][1] * scale / 60:.0f} min on one core (digests included)"
    )


def _triples(with_triples: dict, bare: dict) -> None:
    """The cost of counting relation triples beside the bindings: local engine, 1 process."""
    ratio = with_triples["seconds"] / bare["seconds"]
    obtained = [run["cpu_seconds"] / run["seconds"] for run in (bare, with_triples)]
    cpu = with_triples["cpu_seconds"] / bare["cpu_seconds"]
    parse = with_triples["stages"]["parse"] / bare["stages"]["parse"]
    print(
        f"{'local x1':<40}{'attribute-only':>16}{'with triples':>16}{'ratio':>10}\n"
        f"{'build time (s)':<40}{bare['seconds']:>16.1f}{with_triples['seconds']:>16.1f}"
        f"{ratio:>9.2f}x\n"
        f"{'CPU time, all processes (s)':<40}{bare['cpu_seconds']:>16.1f}"
        f"{with_triples['cpu_seconds']:>16.1f}{cpu:>9.2f}x\n"
        f"{'stage parse (s)':<40}{bare['stages']['parse']:>16.2f}"
        f"{with_triples['stages']['parse']:>16.2f}{parse:>9.2f}x\n"
        f"{'cores obtained (CPU time / wall time)':<40}{obtained[0]:>16.2f}{obtained[1]:>16.2f}\n"
        f"{'distinct triples counted':<40}{bare['n_relations']:>16,}"
        f"{with_triples['n_relations']:>16,}"
    )
    print(
        f"counting triples / attribute-only: {ratio:.2f}x build time, {cpu:.2f}x CPU time "
        f"(target <= {TARGET_TRIPLES}x; same pass, same index file)"
    )


def _child_main(argv: list[str]) -> None:
    if argv[0] == "memory":
        print(json.dumps(_memory_child(int(argv[1]))))
        return
    engine, workers, folder, *relations = argv[1:]
    print(json.dumps(_child(engine, int(workers), folder, relations != ["0"])))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child_main(sys.argv[2:])
    else:
        options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        options.add_argument("--captions", type=int, default=N_CAPTIONS, help="corpus size")
        options.add_argument("--quick", action="store_true", help="far fewer captions")
        args = options.parse_args()
        if args.quick:
            main(QUICK["captions"], QUICK["format"], QUICK["memory"], rounds=1)
        else:
            main(args.captions, N_FORMAT, N_MEMORY)
            FIGURES.save()
