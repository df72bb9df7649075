"""Running the heavy offline work on Ray: `RayRunner` implements `kgrag.parallel.ShardRunner`."""

from .ray_runner import RayRunner

__all__ = ["RayRunner"]
