"""The method contract: `Method(kg, options, *, llm=None)`, typed options with descriptions, one
way to report a question that cannot be answered, and the registry by reference."""

from __future__ import annotations

import pytest
from pydantic import Field

from kgrag import Answer, InvalidOptionError, KnowledgeGraph, NoAnswer, RankedEntity, UnknownMethodError
from kgrag.methods import (
    BaselineMethod,
    GraphRAFTOptions,
    Method,
    MethodOptions,
    PathModelOptions,
    SimGRAGOptions,
    UltRAGOptions,
    available_methods,
    create_method,
    describe_options,
    method_class,
    register_method,
)


class HalfwayOptions(MethodOptions):
    stop: bool = Field(True, description="Give up after the first entity.")


class HalfwayMethod(Method):
    """Halfway: finds one entity, then gives up (to test partial results)."""

    name = "halfway-test"
    Options = HalfwayOptions

    def _answer(self, question: str, result: Answer) -> None:
        result.entities.append(RankedEntity("partial", 0.5, 0))
        if self.options.stop:
            raise NoAnswer("gave up halfway")


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Methods a test registers vanish after it: other tests compare this process's registry with a
    fresh `kgrag methods` process's catalogue."""
    from kgrag.methods import registry

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


def test_every_builtin_has_typed_options_with_descriptions():
    for name, cls in available_methods().items():
        assert issubclass(cls.Options, MethodOptions), name
        assert cls.summary(), name
        for info in describe_options(cls.Options):
            assert info.description, f"{name}.{info.name} has no description"
    for options in (GraphRAFTOptions, SimGRAGOptions, UltRAGOptions):  # the shared fields come from one base
        assert issubclass(options, PathModelOptions)
        for field in PathModelOptions.model_fields:
            mine, base = options.model_fields[field], PathModelOptions.model_fields[field]
            assert (mine.default, mine.description, mine.metadata) == (base.default, base.description, base.metadata)


def test_options_are_validated_the_same_way_from_every_entry(sample_kg):
    with pytest.raises(InvalidOptionError, match=r"baseline options: top_m='x'"):
        create_method("baseline", sample_kg, {"top_m": "x"})
    with pytest.raises(InvalidOptionError, match=r"unknown option 'top_n' \(its options: top_m\)"):
        BaselineMethod(sample_kg, {"top_n": 2})
    assert create_method("baseline", sample_kg, top_m="2").options.top_m == 2  # CLI strings are coerced
    typed = GraphRAFTOptions(top_queries=2)
    assert create_method("graphraft", sample_kg, typed).options is typed
    merged = create_method("graphraft", sample_kg, typed, max_nodes=7).options
    assert (merged.top_queries, merged.max_nodes) == (2, 7)
    with pytest.raises(InvalidOptionError, match="llm"):  # the LLM is an argument, not an option
        create_method("simgrag", sample_kg, {"llm": object()})


def test_the_llm_is_an_explicit_argument(sample_kg):
    sentinel = object()
    assert create_method("simgrag", sample_kg, llm=sentinel).llm is sentinel  # type: ignore[arg-type]


def test_a_question_that_cannot_be_answered_is_reported_once_with_what_was_found(sample_kg, movies_kg,
                                                                                scratch_registry):
    register_method(HalfwayMethod)
    ans = create_method("halfway-test", sample_kg).answer("anything at all")
    assert ans.error == "gave up halfway" and ans.names == ["partial"] and "total" in ans.timings
    assert create_method("halfway-test", sample_kg, stop=False).answer("anything").error is None
    unlinked = create_method("baseline", movies_kg).answer("zzqx qqzz")
    assert unlinked.error and "linked" in unlinked.error and unlinked.entities == []


def test_registry_is_by_reference_and_refuses_a_taken_name(scratch_registry):
    register_method(HalfwayMethod)
    register_method(HalfwayMethod)  # the same class again: fine
    assert method_class("halfway-test") is HalfwayMethod

    class Impostor(HalfwayMethod):
        """Impostor: another class under a taken name."""

    with pytest.raises(ValueError, match="taken"):
        register_method(Impostor)
    with pytest.raises(TypeError):
        register_method(object)  # type: ignore[arg-type]
    with pytest.raises(UnknownMethodError, match="available: .*baseline"):
        method_class("no-such-method")


def _blas_threads() -> dict[str, int]:
    from threadpoolctl import threadpool_info

    return {lib["filepath"]: lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


class NestingMethod(Method):
    """Nesting: answers through another method, as `auto` does through its members, and records
    how many threads BLAS had at each level."""

    name = "nesting-test"
    Options = MethodOptions

    def __init__(self, kg: KnowledgeGraph, inner: Method | None = None) -> None:
        super().__init__(kg)
        self.inner, self.seen = inner, []

    def _answer(self, question: str, result: Answer) -> None:
        self.seen.append(_blas_threads())
        if self.inner is not None:
            result.entities = self.inner.answer(question).entities
        result.entities.append(RankedEntity("done", 1.0, 0))


def test_blas_runs_on_one_thread_inside_answers_however_deeply_nested(sample_kg):
    """`respond` limits BLAS to one thread (small products; spinning workers steal the embedder's
    cores), once for the outermost answer: members answered inside another method stay limited,
    and the limits are what they were afterwards."""
    before = _blas_threads()
    inner = NestingMethod(sample_kg)
    outer = NestingMethod(sample_kg, inner)
    assert [e.name for e in outer.answer("who directed Kill Bill").entities] == ["done", "done"]
    for level in (outer.seen[0], inner.seen[0]):
        assert level and set(level.values()) == {1}
    assert _blas_threads() == before
    inner.answer("who directed Kill Bill")  # alone again: limited again
    assert set(inner.seen[1].values()) == {1}


def test_a_plug_in_method_without_options_takes_none(movies_kg) -> None:  # noqa: ANN001
    """A method class that sets no `Options` (written before methods were generic) still builds,
    refuses unknown options in one line, and lists no options."""
    from kgrag.errors import InvalidOptionError
    from kgrag.methods.base import Method
    from kgrag.methods.options import MethodOptions, describe_options

    class Bare(Method):
        name = "bare"

        def _answer(self, question, result) -> None:  # noqa: ANN001
            result.text = "nothing"

    assert Bare(movies_kg).options == MethodOptions() and describe_options(Bare.Options) == []
    with pytest.raises(InvalidOptionError, match="unknown option 'colour'"):
        Bare(movies_kg, {"colour": "red"})
