"""Reading files: their kind, their bytes to text (text files, PDF, Office, web pages, e-books)."""
