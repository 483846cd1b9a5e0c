"""What a person reviews and acts on: keepers and marks, the comparison of two texts, reports, the pairs
table, moves."""
