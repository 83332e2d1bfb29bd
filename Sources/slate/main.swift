import SlateCLI
