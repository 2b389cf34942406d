"""The live table: whole rounds step after step, the table test, and the same in the JSON API."""
