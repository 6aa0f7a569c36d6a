"""Raw harness transcripts: one writer per harness, in that harness's own format."""

from __future__ import annotations

from samplegen.transcripts.claude import claude_transcript
from samplegen.transcripts.codex import codex_transcript
from samplegen.transcripts.opencode import opencode_transcript

TRANSCRIBERS = {
    "claude-code": claude_transcript,
    "codex": codex_transcript,
    "opencode": opencode_transcript,
}
