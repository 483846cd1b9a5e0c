<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>DiffView</name>
    <message numerus="yes">
        <source>%n of 64 bits different</source>
        <translation>
            <numerusform>%n of 64 bits different</numerusform>
            <numerusform>%n of 64 bits different</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n difference(s)</source>
        <translation>
            <numerusform>%n difference</numerusform>
            <numerusform>%n differences</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExcerptGroupsModel</name>
    <message numerus="yes">
        <source>holds %n excerpt(s)</source>
        <translation>
            <numerusform>holds %n excerpt</numerusform>
            <numerusform>holds %n excerpts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FolderDrops</name>
    <message numerus="yes">
        <source>Added %n folder(s). Press Scan (F5) to look for duplicates.</source>
        <translation>
            <numerusform>Added %n folder. Press Scan (F5) to look for duplicates.</numerusform>
            <numerusform>Added %n folders. Press Scan (F5) to look for duplicates.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GroupsPage</name>
    <message numerus="yes">
        <source>No duplicates among the %Ln document(s) compared, at these settings. Lower “How similar must documents be?” to look for looser matches.</source>
        <translation>
            <numerusform>No duplicates among the %Ln document compared, at these settings. Lower “How similar must documents be?” to look for looser matches.</numerusform>
            <numerusform>No duplicates among the %Ln documents compared, at these settings. Lower “How similar must documents be?” to look for looser matches.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No duplicates among the %Ln document(s) compared, at these settings. Raise “How much may fingerprints differ?” to look for looser matches.</source>
        <translation>
            <numerusform>No duplicates among the %Ln document compared, at these settings. Raise “How much may fingerprints differ?” to look for looser matches.</numerusform>
            <numerusform>No duplicates among the %Ln documents compared, at these settings. Raise “How much may fingerprints differ?” to look for looser matches.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Scan with %n worker(s)</source>
        <translation>
            <numerusform>Scan with %n worker</numerusform>
            <numerusform>Scan with %n workers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) of the Spark result loaded into {path}, opened in a new window.</source>
        <translation>
            <numerusform>%n document of the Spark result loaded into {path}, opened in a new window.</numerusform>
            <numerusform>%n documents of the Spark result loaded into {path}, opened in a new window.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MarkRuleDialog</name>
    <message numerus="yes">
        <source>%n keeper(s)</source>
        <translation>
            <numerusform>%n keeper</numerusform>
            <numerusform>%n keepers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) in reference folders</source>
        <translation>
            <numerusform>%n file in reference folders</numerusform>
            <numerusform>%n files in reference folders</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) that hold their keeper and more</source>
        <translation>
            <numerusform>%n file that hold their keeper and more</numerusform>
            <numerusform>%n files that hold their keeper and more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unticked %n file(s).</source>
        <translation>
            <numerusform>Unticked %n file.</numerusform>
            <numerusform>Unticked %n files.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ticked %n file(s). Met the rule but never ticked: {left}.</source>
        <translation>
            <numerusform>Ticked %n file. Met the rule but never ticked: {left}.</numerusform>
            <numerusform>Ticked %n files. Met the rule but never ticked: {left}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ticked %n file(s).</source>
        <translation>
            <numerusform>Ticked %n file.</numerusform>
            <numerusform>Ticked %n files.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PairsModel</name>
    <message numerus="yes">
        <source>%n word(s)</source>
        <translation>
            <numerusform>%n word</numerusform>
            <numerusform>%n words</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PairsPage</name>
    <message numerus="yes">
        <source>%Ln excerpt(s)</source>
        <translation>
            <numerusform>%Ln excerpt</numerusform>
            <numerusform>%Ln excerpts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %Ln excerpt(s)</source>
        <translation>
            <numerusform>{shown} of %Ln excerpt</numerusform>
            <numerusform>{shown} of %Ln excerpts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) that share passages</source>
        <translation>
            <numerusform>%Ln pair that share passages</numerusform>
            <numerusform>%Ln pairs that share passages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %Ln pair(s) that share passages</source>
        <translation>
            <numerusform>{shown} of %Ln pair that share passages</numerusform>
            <numerusform>{shown} of %Ln pairs that share passages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s)</source>
        <translation>
            <numerusform>%Ln pair</numerusform>
            <numerusform>%Ln pairs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %Ln pair(s)</source>
        <translation>
            <numerusform>{shown} of %Ln pair</numerusform>
            <numerusform>{shown} of %Ln pairs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n very large group(s) only the pairs known: those that joined them, and each member with its keeper</source>
        <translation>
            <numerusform>in %n very large group only the pairs known: those that joined them, and each member with its keeper</numerusform>
            <numerusform>in %n very large groups only the pairs known: those that joined them, and each member with its keeper</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PassageView</name>
    <message numerus="yes">
        <source>%n shared passage(s): the longest {longest} words in a row, {words} words in all</source>
        <translation>
            <numerusform>%n shared passage, {longest} words in a row</numerusform>
            <numerusform>%n shared passages: the longest {longest} words in a row, {words} words in all</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReportExport</name>
    <message numerus="yes">
        <source>Report of the %n group(s) the filter shows saved: {path}</source>
        <translation>
            <numerusform>Report of the %n group the filter shows saved: {path}</numerusform>
            <numerusform>Report of the %n groups the filter shows saved: {path}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SparkImportDialog</name>
    <message numerus="yes">
        <source>Made from {source}: %n document(s).</source>
        <translation>
            <numerusform>Made from {source}: %n document.</numerusform>
            <numerusform>Made from {source}: %n documents.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ThresholdsPanel</name>
    <message numerus="yes">
        <source> bit(s)</source>
        <translation>
            <numerusform> bit</numerusform>
            <numerusform> bits</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; group(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; group</numerusform>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; groups</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; document(s) in them</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; document in them</numerusform>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; documents in them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; excerpt(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; excerpt</numerusform>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; excerpts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in &lt;b&gt;%Ln&lt;/b&gt; document(s)</source>
        <translation>
            <numerusform>in &lt;b&gt;%Ln&lt;/b&gt; document</numerusform>
            <numerusform>in &lt;b&gt;%Ln&lt;/b&gt; documents</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; pair(s) that share passages</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; pair that share passages</numerusform>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; pairs that share passages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) of duplicates within {bits} bits</source>
        <translation>
            <numerusform>%Ln pair of duplicates within {bits} bits</numerusform>
            <numerusform>%Ln pairs of duplicates within {bits} bits</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) of duplicates at {share} % or more</source>
        <translation>
            <numerusform>%Ln pair of duplicates at {share} % or more</numerusform>
            <numerusform>%Ln pairs of duplicates at {share} % or more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) of duplicates at these settings</source>
        <translation>
            <numerusform>%Ln pair of duplicates at these settings</numerusform>
            <numerusform>%Ln pairs of duplicates at these settings</numerusform>
        </translation>
    </message>
</context>
</TS>
