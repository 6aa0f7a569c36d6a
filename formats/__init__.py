"""The release format and the formats results arrive in: no ORM, no pages, imports no app."""
