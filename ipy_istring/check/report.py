"""The check's output: text lines, JSON, or SARIF 2.1.0 for GitHub code scanning."""

from __future__ import annotations

import json
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
_URI = "https://github.com/ipy-istring/ipy_istring#the-check-for-f-strings-into-shells-and-sql"


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


def _sarif(results: Sequence[FileResult]) -> dict[str, Any]:
    rules = [
        {
            "id": rule_id,
            "name": name,
            "shortDescription": {"text": description},
            "helpUri": _URI,
            "defaultConfiguration": {"level": "error"},
        }
        for rule_id, name, description in RULES.values()
    ]
    index = {rule_id: i for i, (rule_id, _, _) in enumerate(RULES.values())}
    sarif_results = []
    for result in results:
        uri = Path(result.path).as_posix()
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
                                "artifactLocation": {"uri": uri},
                                "region": region,
                            }
                        }
                    ],
                }
            )
    notifications = [
        {"level": "error", "message": {"text": error}}
        for result in results
        for error in result.errors
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
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
                "invocations": [
                    {
                        "executionSuccessful": not notifications,
                        "toolExecutionNotifications": notifications,
                    }
                ],
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
