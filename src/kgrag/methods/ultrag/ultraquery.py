"""A plain-PyTorch port of UltraQuery (Galkin et al. 2024) that loads the official checkpoint.

Graph tensors store each triple (h, r, t) twice: edge (h, t)
of type r and edge (t, h) of type r + R. Messages flow from row 1 to row 0 of every edge
(agg[a] += W[ρ] ⊙ x[b]) — the checkpoint was trained with that convention (its fused kernel);
PyG's default is the opposite, and flipping it destroys accuracy (regression-tested).
Parameter names mirror the checkpoint so ``load_state_dict(strict=True)`` checks the port.
The UltraQuery checkpoint is MIT-licensed (see LICENSE_ULTRA next to this file).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

DIM = 64
LAYERS = 6


@dataclass
class GraphTensors:
    num_nodes: int
    num_relations: int  # base relation types R (edge types are 0..2R-1)
    edge_index: torch.Tensor  # (2, 2E): row 0 receives, row 1 sends
    edge_type: torch.Tensor   # (2E,)
    rel_edge_index: torch.Tensor  # relation graph over 2R nodes
    rel_edge_type: torch.Tensor   # 0 h2h, 1 t2t, 2 h2t, 3 t2h

    @classmethod
    def from_triples(cls, triples: np.ndarray, num_nodes: int, num_relations: int,
                     device: str = "cpu") -> GraphTensors:
        h, r, t = (torch.as_tensor(triples[:, i], dtype=torch.long) for i in range(3))
        edge_index = torch.stack([torch.cat([h, t]), torch.cat([t, h])])
        edge_type = torch.cat([r, r + num_relations])
        n_types = 2 * num_relations
        # binary incidence: E_h[x, ρ] = 1 iff x is at row 0 of an edge of type ρ; E_t for row 1
        eh = torch.zeros(num_nodes, n_types)
        et = torch.zeros(num_nodes, n_types)
        eh[edge_index[0], edge_type] = 1
        et[edge_index[1], edge_type] = 1
        rows, cols, kinds = [], [], []
        for k, mat in enumerate((eh.T @ eh, et.T @ et, eh.T @ et, et.T @ eh)):
            nz = mat.nonzero()
            rows.append(nz[:, 0])
            cols.append(nz[:, 1])
            kinds.append(torch.full((len(nz),), k, dtype=torch.long))
        return cls(num_nodes, num_relations, edge_index.to(device), edge_type.to(device),
                   torch.stack([torch.cat(rows), torch.cat(cols)]).to(device), torch.cat(kinds).to(device))


def _propagate(state: torch.Tensor, edge_index: torch.Tensor, edge_weight: torch.Tensor) -> torch.Tensor:
    """sum over edges (a, b) of weight ⊙ state[b], gathered at a (row 1 → row 0)."""
    out = torch.zeros_like(state)
    return out.index_add_(0, edge_index[0], edge_weight * state[edge_index[1]])


class RelationLayer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(2 * DIM, DIM)
        self.layer_norm = nn.LayerNorm(DIM)
        self.relation = nn.Embedding(4, DIM)

    def forward(self, u: torch.Tensor, boundary: torch.Tensor, g: GraphTensors) -> torch.Tensor:
        agg = _propagate(u, g.rel_edge_index, self.relation.weight[g.rel_edge_type]) + boundary
        return torch.relu(self.layer_norm(self.linear(torch.cat([u, agg], -1)))) + u


class EntityLayer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(2 * DIM, DIM)
        self.layer_norm = nn.LayerNorm(DIM)
        self.relation_projection = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU(), nn.Linear(DIM, DIM))

    def forward(self, h: torch.Tensor, boundary: torch.Tensor, rel_repr: torch.Tensor, g: GraphTensors) -> torch.Tensor:
        weights = self.relation_projection(rel_repr)[g.edge_type]
        agg = _propagate(h, g.edge_index, weights) + boundary
        return torch.relu(self.layer_norm(self.linear(torch.cat([h, agg], -1)))) + h


class RelationModel(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.ModuleList(RelationLayer() for _ in range(LAYERS))

    def forward(self, query_type: int, g: GraphTensors) -> torch.Tensor:
        boundary = torch.zeros(2 * g.num_relations, DIM, device=g.edge_index.device)
        boundary[query_type] = 1.0
        u = boundary
        for layer in self.layers:
            u = layer(u, boundary, g)
        return u


class EntityModel(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.ModuleList(EntityLayer() for _ in range(LAYERS))
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 2 * DIM), nn.ReLU(), nn.Linear(2 * DIM, 1))

    def forward(self, fuzzy: torch.Tensor, query_type: int, rel_repr: torch.Tensor, g: GraphTensors) -> torch.Tensor:
        q = rel_repr[query_type]
        boundary = fuzzy[:, None] * q[None, :]
        h = boundary
        for layer in self.layers:
            h = layer(h, boundary, rel_repr, g)
        return torch.sigmoid(self.mlp(torch.cat([h, q.expand_as(h)], -1))[:, 0])


class UltraQuery(nn.Module):
    """Relation projection of a fuzzy set: ``project(x, ρ, g)`` scores every node of ``g``."""

    def __init__(self) -> None:
        super().__init__()
        self.relation_model = RelationModel()
        self.entity_model = EntityModel()

    @classmethod
    def from_checkpoint(cls, path: Path) -> UltraQuery:
        state = torch.load(path, map_location="cpu", weights_only=True)
        state = state.get("model", state)
        prefix = "model.model."
        state = {k[len(prefix):] if k.startswith(prefix) else k: v for k, v in state.items()}
        model = cls()
        model.load_state_dict(state, strict=True)
        return model.eval()

    @torch.no_grad()
    def project(self, fuzzy: torch.Tensor, query_type: int, g: GraphTensors) -> torch.Tensor:
        rel_repr = self.relation_model(query_type, g)
        return self.entity_model(fuzzy, query_type, rel_repr, g)
