"""The Royal Game of Ur pad: a match of games between two players, the loser's position tapped on a drawn board."""
