"""The Nokosu Dice pad: declarations and tricks tapped round by round, each bonus explained."""
