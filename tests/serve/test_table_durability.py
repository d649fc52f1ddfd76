"""Shared-table saves are durable without making the service's loop wait for the disk.

DESIGN asks every save to be fsynced; issue 22 took the fsync off the event loop (a hundred tables
of bots made every key wait for the disk). Both hold: a save is written at once and fsynced by a
thread of its own."""

from __future__ import annotations

import asyncio
import os
import threading

from tui.serve.tables import TableService, archive_dir, tables_dir
from tui.storage import BackgroundSync

SEATS = ["human", "random", "random", "random"]


def _record_fsyncs(monkeypatch) -> list[tuple[str, str]]:
    """Every fsync: the thread that made it and the file or folder it was for."""
    calls: list[tuple[str, str]] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        calls.append((threading.current_thread().name, os.readlink(f"/proc/self/fd/{fd}")))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def test_a_table_save_is_fsynced_by_the_sync_thread_never_by_the_loop(monkeypatch):
    calls = _record_fsyncs(monkeypatch)

    async def scenario() -> str:
        service = TableService(bot_delay=0)
        tid = service.create({}, SEATS, seed=1, game="clue", creator="alice")
        loop_thread = threading.current_thread().name
        assert service._sync.flush(10)
        assert not [c for c in calls if c[0] == loop_thread], "the loop waited for the disk"
        await service.close()
        return tid

    tid = asyncio.run(scenario())
    path = str((tables_dir() / f"{tid}.json").resolve())
    synced = {target for _, target in calls}
    assert path in synced, "the table file never reached the disk"
    assert str(tables_dir().resolve()) in synced, "the rename was never made durable"


def test_an_archived_table_is_fsynced_where_it_now_lives(monkeypatch):
    calls = _record_fsyncs(monkeypatch)

    async def scenario() -> str:
        service = TableService(bot_delay=0, idle_after=0)
        tid = service.create({}, SEATS, seed=1, game="clue", creator="alice")
        assert tid in service.archive_finished()
        assert service._sync.flush(10)
        await service.close()
        return tid

    tid = asyncio.run(scenario())
    assert str((archive_dir() / f"{tid}.json").resolve()) in {target for _, target in calls}


def test_the_sync_thread_ends_when_idle_and_starts_again_for_the_next_save(tmp_path, monkeypatch):
    monkeypatch.setattr("tui.storage.IDLE_SYNC_THREAD", 0.05)
    calls = _record_fsyncs(monkeypatch)
    sync = BackgroundSync()
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text("{}")
    second.write_text("{}")
    sync.add(first)
    assert sync.flush(10)
    thread = sync._thread
    if thread is not None:
        thread.join(5)
    assert sync._thread is None, "an idle sync thread lingers"
    sync.add(second)
    assert sync.flush(10)
    sync.close()
    synced = {target for _, target in calls}
    assert {str(first), str(second), str(tmp_path)} <= synced
    assert not any(t.name == "unmask-fsync" and t.is_alive() for t in threading.enumerate())


def test_two_tables_made_in_one_instant_never_share_an_id():
    async def scenario() -> list[str]:
        service = TableService(bot_delay=0, max_per_user=50)
        ids = [service.create({}, SEATS, seed=i, game="clue", creator=f"u{i}") for i in range(40)]
        await service.close()
        return ids

    ids = asyncio.run(scenario())
    assert len(set(ids)) == len(ids)
