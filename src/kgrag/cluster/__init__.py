"""Running the heavy offline work on Ray: `RayRunner` implements `kgrag.parallel.ShardRunner`."""

from .ray_runner import RayRunner, ray_available

__all__ = ["RayRunner", "ray_available"]
