"""The knowledge base: sources, parsing, chunking, ingest, crawler, stores."""
