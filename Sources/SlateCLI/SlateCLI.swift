/// The `slate` command line: parsing, help, terminal rendering.
public enum SlateCLI {}
