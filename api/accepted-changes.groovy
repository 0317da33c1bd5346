// japicmp's post-analysis step (see the japicmp plugin in the parent pom): leaves out of the comparison each change
// api/accepted-changes.txt accepts, so the build breaks only on a break nobody decided on. japicmp gives this script
// its result as jApiClasses and takes back what it returns.
def root = new File(System.getProperty('maven.multiModuleProjectDirectory', '.'))
def accepted = new File(root, 'api/accepted-changes.txt').readLines()
        .collect { it.trim() }
        .findAll { it && !it.startsWith('#') }
        .collect { it.contains(': ') ? it.substring(0, it.indexOf(': ')).trim() : it }
        .toSet()
def signature = { member ->
    def params = member.parameters.collect { it.type }.join(',')
    member.name + '(' + params + ')'
}
def kept = []
for (c in jApiClasses) {
    def name = c.fullyQualifiedName
    if (accepted.contains(name)) {
        // the class as a whole (its kind, its superclass, every member): japicmp judges what is left of it, so the
        // class stays in the result with nothing incompatible left
        c.compatibilityChanges.clear()
        c.superclass.compatibilityChanges.clear()
        c.interfaces.each { it.compatibilityChanges.clear() }
        c.methods.clear()
        c.constructors.clear()
        c.fields.clear()
        kept << c
        continue
    }
    // a member as japicmp's message names it (Class.member) or as Javadoc does (Class#member)
    def isAccepted = { member -> accepted.contains(name + '#' + member) || accepted.contains(name + '.' + member) }
    c.methods.removeIf { isAccepted(signature(it)) }
    c.constructors.removeIf { isAccepted(signature(it)) }
    c.fields.removeIf { isAccepted(it.name) }
    kept << c
}
return kept
