// Run by the sdk module's maven-invoker-plugin after the examples' build: the word count printed its final counts.
def log = new File(basedir, 'build.log').text
assert log.contains('word-count> +I[fox, 1]') : 'no count of "fox" in the word count output'
assert log =~ /word-count> \+U\[the, 7\]/ : 'the count of "the" did not reach 7'
