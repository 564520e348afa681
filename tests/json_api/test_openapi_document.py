"""The OpenAPI document says what each call really takes and answers.

django-ninja files every schema under its class name alone, so two classes of one name (there
were two ``ChallengeIn``: the ladder's ``{opponent}`` and POST /challenges' full body) share one
entry and one of the calls is described with the other's body (issue 29). Here every operation
of the API is walked: the body its function parses, and each answer it declares, must be what
the document describes for it, once every reference is followed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from ninja.openapi.schema import REF_TEMPLATE
from ninja.operation import Operation
from ninja.schema import NinjaGenerateJsonSchema

from api.api import api

_PREFIX = REF_TEMPLATE.format(model="")
_BODY_SOURCES = ("body", "form", "file")


def _resolved(node: Any, definitions: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """``node`` with every ``$ref`` replaced by what it names (a recursive one left as is)."""
    if isinstance(node, list):
        return [_resolved(item, definitions, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_PREFIX):
        name = ref.removeprefix(_PREFIX)
        if name in seen:
            return node
        rest = {key: value for key, value in node.items() if key != "$ref"}
        return _resolved({**definitions[name], **rest}, definitions, (*seen, name))
    return {key: _resolved(value, definitions, seen) for key, value in node.items()}


def _code_schema(model: Any, mode: str) -> Any:
    """The schema pydantic itself gives ``model``, references resolved within it."""
    schema = model.model_json_schema(
        ref_template=REF_TEMPLATE, schema_generator=NinjaGenerateJsonSchema, mode=mode
    )
    definitions = schema.pop("$defs", {})
    return _resolved(schema, definitions)


def _operations() -> Iterator[tuple[str, Operation]]:
    for bound_router in api._get_bound_routers():
        for path_view in bound_router.path_operations.values():
            for operation in path_view.operations:
                if operation.include_in_schema:
                    yield operation.operation_id or api.get_openapi_operation_id(operation), operation


DOCUMENT = api.get_openapi_schema(path_prefix="/api/v1")
COMPONENTS = DOCUMENT["components"]["schemas"]
DOCUMENTED = {
    details["operationId"]: details
    for methods in DOCUMENT["paths"].values()
    for details in methods.values()
}
OPERATIONS = dict(_operations())


def test_every_operation_is_documented_once() -> None:
    assert len(OPERATIONS) == sum(len(methods) for methods in DOCUMENT["paths"].values())
    assert set(OPERATIONS) == set(DOCUMENTED)


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_the_documented_request_body_is_the_one_parsed(operation_id: str) -> None:
    operation = OPERATIONS[operation_id]
    documented = DOCUMENTED[operation_id].get("requestBody")
    bodies = [model for model in operation.models if model.__ninja_param_source__ in _BODY_SOURCES]
    if not bodies:
        assert documented is None
        return
    assert documented is not None, f"{operation_id} parses a body the document does not describe"
    [(_content_type, content)] = documented["content"].items()
    described = _resolved(content["schema"], COMPONENTS)
    [model] = bodies  # our calls take one body each; several would be a multipart merge
    parsed = _code_schema(model, "validation")
    if model.__ninja_param_source__ == "body" and len(parsed["properties"]) == 1:
        # One body parameter: the document shows the parameter's schema, not its wrapper.
        [parsed] = parsed["properties"].values()
    assert described == parsed, f"{operation_id}: the document describes another body"


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_the_documented_answers_are_the_ones_declared(operation_id: str) -> None:
    operation = OPERATIONS[operation_id]
    documented = DOCUMENTED[operation_id]["responses"]
    for status, model in operation.response_models.items():
        if status is Ellipsis or model is None or str(status) not in documented:
            continue
        content = documented[str(status)].get("content", {}).get("application/json")
        if content is None:
            continue  # described by hand (openapi_extra), e.g. the .mat file's text
        declared = _code_schema(model, "serialization")
        if len(declared.get("properties", {})) == 1:
            [declared] = declared["properties"].values()  # ninja's wrapper around the answer
        assert _resolved(content["schema"], COMPONENTS) == declared, (
            f"{operation_id}: the document describes another answer for {status}"
        )
