"""Crash and damage tests of parts, the flusher and the WAL checkpoint.

Goal: a crash at every step of part publish and WAL checkpoint loses no
acknowledged row and stores none twice; a damaged column block fails only
its own granule with an error naming table, part, column and granule; a
damaged skip index changes no result and is logged; a million rows survive
a restart byte for byte and the WAL keeps no segment older than the last
flush.
"""
import os
import re
import signal
import subprocess

import pytest

from test_write_path import DRIVER, FAILPOINTS, ROWS, parse_acks, start_append, verify

pytestmark = pytest.mark.skipif(not DRIVER, reason="MUSCLES_WAL_DRIVER not set (run through ctest)")
needs_failpoints = pytest.mark.skipif(not FAILPOINTS, reason="needs -DMUSCLES_FAILPOINTS=ON")


def run_driver(*args, env_extra=None, timeout=300):
    env = dict(os.environ)
    env.pop("MUSCLES_FAILPOINTS", None)
    env.update(env_extra or {})
    result = subprocess.run([DRIVER, *map(str, args)], capture_output=True, env=env,
                            timeout=timeout)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def fill(data_dir, threads=4, batches=60):
    proc = start_append(data_dir, threads=threads, batches=batches)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]
    acked, errors = parse_acks(out)
    assert not errors, errors[:3]
    return acked


@needs_failpoints
@pytest.mark.parametrize("point", [
    "part.before_rename",
    "part.after_rename",
    "table.stage.before_commit",
    "table.stage.after_commit",
    "table.stage.after_first_rename",
    "table.flush.before_commit",
    "table.flush.after_commit",
])
def test_crash_at_each_stage_step(tmp_path, point):
    """Staged (atomic multi-batch) inserts beside plain appends: a crash at a
    step of staging or of its commit, restart, check; three times in a row.
    Every acknowledged insert is whole and stored once, an unacknowledged
    one is whole or absent (never partial), and stage/ is empty after a
    restart."""
    data_dir = tmp_path / "table"
    acked_total = set()
    for round_index, hit in enumerate((1, 2, 3)):
        # flush_rows 20 < 50 rows per insert: a stage writes parts before
        # its commit as well as at it.
        proc = start_append(data_dir, threads=4, batches=40, failpoints=f"{point}=crash@{hit}",
                            thread_base=round_index * 4, flush_rows=20, stage=True,
                            flush_every=5)
        out, err = proc.communicate(timeout=300)
        acked, errors = parse_acks(out)
        assert not errors, errors[:3]
        assert proc.returncode == -signal.SIGKILL, (point, hit, err.decode()[-2000:])
        acked_total |= acked
        text = verify(data_dir, acked_total, tmp_path)
        assert "refuses writes" not in text
        stage_dir = data_dir / "parts" / "stage"
        assert not stage_dir.exists() or not any(stage_dir.iterdir()), list(stage_dir.iterdir())


@needs_failpoints
@pytest.mark.parametrize("point", [
    "part.before_rename",
    "part.after_rename",
    "table.flush.before_commit",
    "table.flush.after_commit",
    "table.flush.before_checkpoint",
    "wal.truncate.after_unlink",
    "table.flush.after_checkpoint",
])
def test_crash_at_each_flush_step(tmp_path, point):
    """Crash at a step of the flush, restart, check; three times in a row."""
    data_dir = tmp_path / "table"
    acked_total = set()
    for round_index, hit in enumerate((1, 2, 3)):
        # 40,000 rows flushed every 1,000: many more flushes (and WAL
        # checkpoints) than the crash needs, whatever the machine's speed.
        # Each appender also asks for a flush every 10 batches: at least 80
        # rounds even when the flusher lags behind a loaded machine.
        proc = start_append(data_dir, threads=4, batches=200, failpoints=f"{point}=crash@{hit}",
                            thread_base=round_index * 4, flush_rows=1000, flush_every=10)
        out, err = proc.communicate(timeout=300)
        acked, errors = parse_acks(out)
        assert not errors, errors[:3]
        assert proc.returncode == -signal.SIGKILL, (point, hit, err.decode()[-2000:])
        acked_total |= acked
        text = verify(data_dir, acked_total, tmp_path)
        assert "refuses writes" not in text
    # Nothing of an unpublished or uncommitted part is left behind.
    leftovers = [p.name for p in (data_dir / "parts").iterdir() if p.name.startswith("tmp_")]
    assert not leftovers


@needs_failpoints
@pytest.mark.parametrize("spec", [
    "part.write=error@3x1",
    "part.fsync=error@2x1",
    "part.rename=error@1x1",
    "table.flushed_lsn=error:ENOSPC@1x1",
])
def test_failed_flush_step_is_retried_without_loss(tmp_path, spec):
    data_dir = tmp_path / "table"
    proc = start_append(data_dir, threads=4, batches=60, failpoints=spec)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]
    acked, errors = parse_acks(out)
    assert not errors, errors[:3]
    assert "table.flush_failed" in err.decode(), "the injected fault must have been hit"
    verify(data_dir, acked, tmp_path)


def test_flipped_byte_in_column_block_fails_only_that_granule(tmp_path):
    data_dir = tmp_path / "table"
    fill(data_dir)
    part_dir = sorted(p for p in (data_dir / "parts").iterdir()
                      if p.is_dir() and not p.name.startswith(("tmp_", "detached")))[0]
    column_file = part_dir / "payload.bin"
    raw = bytearray(column_file.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    column_file.write_bytes(bytes(raw))
    code, out, err = run_driver("read", data_dir)
    assert code == 0, err[-2000:]
    errors = [line for line in out.splitlines() if line.startswith("read-error")]
    assert len(errors) == 1, out
    message = errors[0]
    assert "ECHECKSUM" in message
    assert "default.crash_test" in message and part_dir.name in message
    assert "column payload" in message and re.search(r"granule \d+", message), message
    summary = out.splitlines()[-1]
    assert int(re.search(r"granules_ok=(\d+)", summary).group(1)) > 0


def test_damaged_skip_index_changes_no_result(tmp_path):
    data_dir = tmp_path / "table"
    fill(data_dir)
    lo, hi = 1000005, 1000020
    code, before, err = run_driver("count", data_dir, lo, hi)
    assert code == 0, err[-2000:]
    count = int(before.split()[1])
    read, total = map(int, re.findall(r"granules_\w+=(\d+)", before))
    assert count > 0 and read < total, before  # the index prunes when intact
    damaged = 0
    for index in (data_dir / "parts").glob("*/idx/minmax_batch_id.idx"):
        raw = bytearray(index.read_bytes())
        raw[len(raw) // 2] ^= 0xFF
        index.write_bytes(bytes(raw))
        damaged += 1
    assert damaged > 0
    code, after, err = run_driver("count", data_dir, lo, hi)
    assert code == 0, err[-2000:]
    assert int(after.split()[1]) == count, (before, after)
    assert "table.skip_index_ignored" in err and "level=warn" in err, err[-2000:]


def test_million_rows_survive_restart_and_wal_is_checkpointed(tmp_path):
    data_dir = tmp_path / "table"
    rows = 1000
    env = {"WAL_DRIVER_FLUSH_ROWS": "200000", "WAL_DRIVER_FLUSH_INTERVAL_MS": "0"}
    code, out, err = run_driver("append", data_dir, 4, 250, rows, env_extra=env)
    assert code == 0, err[-2000:]
    acked, errors = parse_acks(out.encode())
    assert len(acked) == 1000 and not errors
    acked_file = tmp_path / "acked.txt"
    acked_file.write_text("".join(f"{i}\n" for i in sorted(acked)))
    code, out, err = run_driver("verify", data_dir, rows, acked_file, env_extra=env)
    assert code == 0 and "verify ok batches=1000 rows=1000000" in out, out + err[-2000:]
    # No WAL segment lies wholly at or below the committed flush.
    flushed = int((data_dir / "parts" / "flushed_lsn").read_text().split()[2])
    assert flushed > 0
    firsts = sorted(int(p.stem) for p in (data_dir / "wal").glob("*.log"))
    for first, next_first in zip(firsts, firsts[1:]):
        assert next_first - 1 > flushed, (firsts, flushed)


def test_part_with_damaged_manifest_is_detached(tmp_path):
    data_dir = tmp_path / "table"
    fill(data_dir)
    parts = sorted(p for p in (data_dir / "parts").iterdir()
                   if p.is_dir() and not p.name.startswith(("tmp_", "detached")))
    victim = parts[0]
    manifest = victim / "manifest"
    raw = bytearray(manifest.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    manifest.write_bytes(bytes(raw))
    code, out, err = run_driver("read", data_dir)
    assert code == 0, err[-2000:]
    assert "table.part_detached" in err and victim.name in err, err[-2000:]
    assert (data_dir / "parts" / "detached" / victim.name / "manifest").exists()
    assert not victim.exists()
    # The other parts still read cleanly.
    assert "errors=0" in out.splitlines()[-1], out


@needs_failpoints
def test_unsynced_commit_keeps_the_wal(tmp_path):
    """The commit's rename happened but its directory fsync failed: the flush
    counts as done for readers, the WAL keeps the records until a later
    commit syncs, and a kill -9 then loses nothing."""
    data_dir = tmp_path / "table"
    # Per flush commit: open, write, fsync, rename, directory fsync (hit 5).
    proc = start_append(data_dir, threads=4, batches=60, failpoints="table.flushed_lsn=error@5x1",
                        flush_rows=1000)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]
    acked, errors = parse_acks(out)
    assert not errors, errors[:3]
    assert "table.flush_commit_unsynced" in err.decode(), err.decode()[-2000:]
    verify(data_dir, acked, tmp_path)


@needs_failpoints
def test_failed_publish_fsync_is_retried_under_the_same_name(tmp_path):
    """The part's rename happened but the parent fsync failed: the flush
    fails, the published-but-uncommitted part is removed, and the next round
    writes it again (it must not be stuck on an existing name)."""
    data_dir = tmp_path / "table"
    # A final flush after the appends: when the failed round was the only
    # one (all rows arrived before the flusher ran), its retry still comes.
    proc = start_append(data_dir, threads=4, batches=60, failpoints="part.fsync_dir=error@3x1",
                        flush_rows=1000, final_flush=True)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()[-2000:]
    acked, errors = parse_acks(out)
    assert not errors, errors[:3]
    assert "table.flush_failed" in err.decode(), err.decode()[-2000:]
    assert "flushed_lsn" in {p.name for p in (data_dir / "parts").iterdir()}
    verify(data_dir, acked, tmp_path)
