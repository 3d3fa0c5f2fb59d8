"""The Panda Royale score pad."""
