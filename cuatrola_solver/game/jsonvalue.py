"""The shape of a JSON value: what the ``to_dict`` methods of results return and what
``json.dumps`` writes (docs/json.md).  A name for readers and for ``mypy --strict``, which
wants every ``dict`` to say what it holds."""

from __future__ import annotations

from typing import Any, Mapping, Sequence, Union

#: a value ``json.dumps`` writes as it is (a tuple is written as a list); read-only
#: containers, so that a ``dict[str, int]`` is one too
JSONValue = Union[None, bool, int, float, str, Sequence["JSONValue"], Mapping[str, "JSONValue"]]
#: a JSON object: what a ``to_dict`` returns
JSONObject = dict[str, JSONValue]
#: a JSON object as ``json.loads`` reads it, before its fields are checked one by one (or
#: carried through unread, as a file's provenance is): its values are whatever the file says
ParsedJSON = dict[str, Any]
