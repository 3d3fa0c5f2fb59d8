"""The Pass the Pandas pad: who went out, in order; in Panda-monium the dice still in play, to a target."""
