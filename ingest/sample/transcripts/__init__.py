"""Raw harness transcripts: one writer per harness, in that harness's own format."""

from __future__ import annotations

from ingest.sample.transcripts.claude import claude_transcript
from ingest.sample.transcripts.codex import codex_transcript
from ingest.sample.transcripts.opencode import opencode_transcript

TRANSCRIBERS = {
    "claude-code": claude_transcript,
    "codex": codex_transcript,
    "opencode": opencode_transcript,
}
