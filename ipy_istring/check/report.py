"""The check's output: text lines, JSON, or SARIF 2.1.0 for GitHub code scanning."""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .flow import Finding
from .scan import FileResult

__all__ = ["FORMATS", "RULES", "render"]

FORMATS = ("text", "json", "sarif")
RULES = {
    "shell": ("IST001", "formatted-string-into-shell", "A formatted string reaches a shell"),
    "sql": ("IST002", "formatted-string-into-sql", "A formatted string reaches a SQL engine"),
}
# What GitHub code scanning shows of a rule: its weakness, and how severe (CVSS-like, 0-10).
_CWE = {"shell": "78", "sql": "89"}
_SEVERITY = "9.8"
_URI = "https://github.com/ipy-istring/ipy_istring#the-check-for-f-strings-into-shells-and-sql"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
_ROOT = "%SRCROOT%"


def _record(result: FileResult, finding: Finding) -> dict[str, Any]:
    return {
        "path": result.path,
        "cell": finding.cell,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "rule": RULES[finding.destination][0],
        "call": finding.call,
        "destination": finding.destination,
        "how": finding.how,
        "via": finding.via or None,
        "message": finding.message(),
        "fix": finding.fixed,
        "no_fix": finding.no_fix,
    }


def _text(results: Sequence[FileResult]) -> tuple[str, str]:
    """Findings, one a line (stdout), and the files that could not be checked (stderr)."""
    out = []
    for result in results:
        for finding in result.findings:
            out.append(
                f"{result.where(finding)}:{finding.line}:{finding.column}: {finding.message()}"
            )
    errors = [error for result in results for error in result.errors]
    return "".join(line + "\n" for line in out), "".join(line + "\n" for line in errors)


def _artifact(path: str, root: Path | None) -> dict[str, str]:
    """Where a file is, for SARIF: relative to ``root`` (the current folder, which code
    scanning takes for the repository's) when it is under it, else an absolute ``file:`` URI;
    percent-encoded either way.  (``root`` None: the current folder is gone, and a path is
    only absolute if it was written so.)"""
    if root is None:
        absolute = Path(path)
        if not absolute.is_absolute():
            return {"uri": urllib.parse.quote(os.fsencode(absolute.as_posix()))}
    else:
        absolute = Path(path).absolute()
    try:
        relative = absolute.relative_to(root) if root is not None else None
    except ValueError:
        relative = None
    if relative is None:
        return {"uri": absolute.as_uri()}
    # (as bytes: a name that is not UTF-8 holds surrogate escapes, which cannot be encoded)
    return {"uri": urllib.parse.quote(os.fsencode(relative.as_posix())), "uriBaseId": _ROOT}


def _sarif(results: Sequence[FileResult]) -> dict[str, Any]:
    rules = [
        {
            "id": rule_id,
            "name": name,
            "shortDescription": {"text": description},
            "fullDescription": {
                "text": f"{description} unquoted: the values formatted into it are code there "
                "(injection). Build it with an i-string and the renderer for its destination."
            },
            "helpUri": _URI,
            "defaultConfiguration": {"level": "error"},
            "properties": {
                "tags": ["security", f"external/cwe/cwe-{_CWE[destination]}"],
                "precision": "high",
                "security-severity": _SEVERITY,
            },
        }
        for destination, (rule_id, name, description) in RULES.items()
    ]
    index = {rule_id: i for i, (rule_id, _, _) in enumerate(RULES.values())}
    try:
        root: Path | None = Path.cwd()
    except OSError:  # (the folder the run started in was removed since)
        root = None
    sarif_results = []
    for result in results:
        artifact = _artifact(result.path, root)
        for finding in result.findings:
            rule_id = RULES[finding.destination][0]
            message = finding.message()
            region: dict[str, int] = {"startLine": finding.line, "startColumn": finding.column}
            if finding.cell is not None:
                # A cell's lines are not the notebook file's: name the cell, point at line 1.
                message = f"[cell {finding.cell}, line {finding.line}] {message}"
                region = {"startLine": 1}
            elif finding.end_line >= finding.line:
                region["endLine"] = finding.end_line
                region["endColumn"] = max(finding.end_column, 1)
            sarif_results.append(
                {
                    "ruleId": rule_id,
                    "ruleIndex": index[rule_id],
                    "level": "error",
                    "message": {"text": message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": artifact,
                                "region": region,
                            }
                        }
                    ],
                }
            )
    notifications = [
        {
            "level": "error",
            "message": {"text": error},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(result.path, root)}}],
        }
        for result in results
        for error in result.errors
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ipy_istring.check",
                        "informationUri": _URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": (
                    {_ROOT: {"uri": root.as_uri().rstrip("/") + "/"}} if root is not None else {}
                ),
                "invocations": [
                    {
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                "columnKind": "unicodeCodePoints",  # (the findings' columns count characters)
                "results": sarif_results,
            }
        ],
    }


def render(results: Sequence[FileResult], output_format: str) -> tuple[str, str]:
    """The report in ``output_format`` (one of :data:`FORMATS`): (stdout text, stderr text)."""
    if output_format == "text":
        return _text(results)
    if output_format == "json":
        document = {
            "findings": [_record(r, f) for r in results for f in r.findings],
            "errors": [error for r in results for error in r.errors],
        }
        return json.dumps(document, indent=2) + "\n", ""
    if output_format == "sarif":
        return json.dumps(_sarif(results), indent=2) + "\n", ""
    raise ValueError(f"unknown format {output_format!r}; use one of {', '.join(FORMATS)}")
