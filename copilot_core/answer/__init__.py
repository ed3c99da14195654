"""What an answer is: typed blocks and the parser that turns a model's text into them."""
