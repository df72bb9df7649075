"""Documents and tables: reading, chunking, the chunk graph and hybrid search (SAGE)."""
