<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Actions</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Mark</source>
        <translation>标记(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Add Folder…</source>
        <translation>添加文件夹(&amp;A)…</translation>
    </message>
    <message>
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
    <message>
        <source>&amp;Scan</source>
        <translation>扫描(&amp;S)</translation>
    </message>
    <message>
        <source>Scan the folders. A rescan reads only files that changed.</source>
        <translation>扫描文件夹。重新扫描时只读取有变化的文件。</translation>
    </message>
    <message>
        <source>&amp;Cancel Scan</source>
        <translation>取消扫描(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the scan; what was read is kept and a rescan continues from there</source>
        <translation>停止扫描；已读取的内容会保留，重新扫描时从中断处继续</translation>
    </message>
    <message>
        <source>&amp;Export Report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the groups as HTML, CSV or JSON</source>
        <translation>把重复组保存为 HTML、CSV 或 JSON</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Quit neardup</source>
        <translation>退出 neardup</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>Take back the last decision or move</source>
        <translation>撤销上一次的决定或移动</translation>
    </message>
    <message>
        <source>&amp;Decisions…</source>
        <translation>决定记录(&amp;D)…</translation>
    </message>
    <message>
        <source>Every “not a duplicate” you made, to review and take back</source>
        <translation>你做过的所有“不是重复”决定，可以查看和撤回</translation>
    </message>
    <message>
        <source>&amp;Keep This One</source>
        <translation>保留这个(&amp;K)</translation>
    </message>
    <message>
        <source>Make the selected document the group&apos;s keeper</source>
        <translation>把选中的文档设为本组保留的文件</translation>
    </message>
    <message>
        <source>&amp;Not a Duplicate</source>
        <translation>不是重复(&amp;N)</translation>
    </message>
    <message>
        <source>Set the selected document apart from its group: it is not a duplicate of them, now and after rescans; Edit ▸ Undo takes it back</source>
        <translation>把选中的文档移出本组：它和组里其他文档不是重复，重新扫描后也一样；可用“编辑 ▸ 撤销”恢复</translation>
    </message>
    <message>
        <source>Move Others to &amp;Trash…</source>
        <translation>将其余文件移到回收站(&amp;T)…</translation>
    </message>
    <message>
        <source>Move every member except the keeper to the system trash, after confirmation. Files in reference folders are never moved.</source>
        <translation>确认后，把除保留项以外的所有文件移到系统回收站。参考文件夹中的文件永远不会被移动。</translation>
    </message>
    <message>
        <source>&amp;Open Document</source>
        <translation>打开文档(&amp;O)</translation>
    </message>
    <message>
        <source>Open the selected document with its application</source>
        <translation>用对应的应用程序打开选中的文档</translation>
    </message>
    <message>
        <source>Open the folder that holds the selected document</source>
        <translation>打开选中文档所在的文件夹</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Next difference in the pair, or the next passage two documents share</source>
        <translation>这对文档的下一处差异，或两者共有的下一段段落</translation>
    </message>
    <message>
        <source>Previous difference in the pair, or the passage two documents share before</source>
        <translation>这对文档的上一处差异，或两者共有的上一段段落</translation>
    </message>
    <message>
        <source>Sho&amp;w in Folder</source>
        <translation>在文件夹中显示(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Import Spark Result…</source>
        <translation>导入 Spark 结果(&amp;I)…</translation>
    </message>
    <message>
        <source>Load the result of a neardup job on a Spark cluster, to review it in a new window</source>
        <translation>载入 neardup 在 Spark 集群上运行的结果，在新窗口中审阅</translation>
    </message>
    <message>
        <source>Filter groups by path or topic</source>
        <translation>按路径或主题筛选组</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>设置(&amp;P)…</translation>
    </message>
    <message>
        <source>Language, appearance, which file to keep, how similar documents must be</source>
        <translation>界面语言、外观、保留哪个文件、文档要多相似才算重复</translation>
    </message>
    <message>
        <source>Mark &amp;All but the Keepers</source>
        <translation>标记除保留项外的所有文件(&amp;A)</translation>
    </message>
    <message>
        <source>Tick every member of every group except the file it keeps; files in reference folders are never ticked. Tick or untick any file by hand in the first column.</source>
        <translation>勾选每个组中除保留的文件以外的所有文件；参考文件夹中的文件不会被勾选。也可以在第一列手动勾选或取消勾选任意文件。</translation>
    </message>
    <message>
        <source>Mark by &amp;Rule…</source>
        <translation>按规则标记(&amp;R)…</translation>
    </message>
    <message>
        <source>Tick the files in a folder, matching a name, by date or by size</source>
        <translation>按文件夹、文件名、日期或大小勾选文件</translation>
    </message>
    <message>
        <source>&amp;Unmark All</source>
        <translation>全部取消标记(&amp;U)</translation>
    </message>
    <message>
        <source>Untick every file</source>
        <translation>取消勾选所有文件</translation>
    </message>
    <message>
        <source>Mark &amp;Selected</source>
        <translation>标记选中的行(&amp;S)</translation>
    </message>
    <message>
        <source>Tick the selected rows (Shift or Ctrl+click to select many); a group&apos;s row ticks every member but its keeper and files in reference folders</source>
        <translation>勾选选中的行（按住 Shift 或 Ctrl 点击可多选）；选中组的那一行，会勾选组里除保留的文件和参考文件夹中的文件以外的所有文件</translation>
    </message>
    <message>
        <source>Unmar&amp;k Selected</source>
        <translation>取消标记选中的行(&amp;K)</translation>
    </message>
    <message>
        <source>Untick the selected rows</source>
        <translation>取消勾选选中的行</translation>
    </message>
    <message>
        <source>Move Marked to &amp;Trash…</source>
        <translation>将已标记文件移到回收站(&amp;T)…</translation>
    </message>
    <message>
        <source>Move every ticked file to the system trash, all groups at once, after one confirmation. A group&apos;s keeper and files in reference folders never move.</source>
        <translation>确认一次后，把所有组中已勾选的文件一起移到系统回收站。各组保留的文件和参考文件夹中的文件永远不会被移动。</translation>
    </message>
    <message>
        <source>Move Marked to &amp;Folder…</source>
        <translation>将已标记文件移到文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Move every ticked file into a folder you choose, keeping their folders below it, after one confirmation; Edit ▸ Undo puts them back. A group&apos;s keeper and reference files never move.</source>
        <translation>确认一次后，把所有已勾选的文件移到你选择的文件夹中，并在其中保留原来的文件夹结构；可用“编辑 ▸ 撤销”移回。各组保留的文件和参考文件夹中的文件永远不会被移动。</translation>
    </message>
    <message>
        <source>&amp;Copy Marked Paths</source>
        <translation>复制已标记文件的路径(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the paths of the ticked files, one a line</source>
        <translation>复制已勾选文件的路径，每行一个</translation>
    </message>
    <message>
        <source>&amp;Groups</source>
        <translation>重复组(&amp;G)</translation>
    </message>
    <message>
        <source>Show the groups</source>
        <translation>显示重复组</translation>
    </message>
    <message>
        <source>P&amp;airs</source>
        <translation>文档对(&amp;A)</translation>
    </message>
    <message>
        <source>Show every pair of duplicates, one by one</source>
        <translation>逐一显示每一对重复文档</translation>
    </message>
    <message>
        <source>&amp;Problems</source>
        <translation>问题(&amp;P)</translation>
    </message>
    <message>
        <source>Show files that could not be compared</source>
        <translation>显示无法比较的文件</translation>
    </message>
    <message>
        <source>Next &amp;Difference</source>
        <translation>下一处差异(&amp;D)</translation>
    </message>
    <message>
        <source>Previous D&amp;ifference</source>
        <translation>上一处差异(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>使用指南(&amp;U)</translation>
    </message>
    <message>
        <source>How to find, compare and sort out duplicates, in a few pages</source>
        <translation>用几页篇幅介绍如何查找、比较和整理重复文档</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every key of the window</source>
        <translation>窗口中的所有快捷键</translation>
    </message>
    <message>
        <source>&amp;About neardup</source>
        <translation>关于 neardup(&amp;A)</translation>
    </message>
    <message>
        <source>Versions and credits</source>
        <translation>版本和致谢</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>About Qt</source>
        <translation>关于 Qt</translation>
    </message>
    <message>
        <source>Keep Left</source>
        <translation>保留左侧</translation>
    </message>
    <message>
        <source>Keep the left file and tick the right one for the trash or a folder; Edit ▸ Undo takes the keep back</source>
        <translation>保留左侧文件，并勾选右侧文件以移到回收站或文件夹；编辑 ▸ 撤销可收回这次保留</translation>
    </message>
    <message>
        <source>Keep Right</source>
        <translation>保留右侧</translation>
    </message>
    <message>
        <source>Keep the right file and tick the left one for the trash or a folder; Edit ▸ Undo takes the keep back</source>
        <translation>保留右侧文件，并勾选左侧文件以移到回收站或文件夹；编辑 ▸ 撤销可收回这次保留</translation>
    </message>
    <message>
        <source>{tip} ({keys})</source>
        <translation>{tip}（{keys}）</translation>
    </message>
    <message>
        <source>&amp;Undo Not a Duplicate</source>
        <translation>撤销“不是重复”(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo Keep</source>
        <translation>撤销“保留”(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo Move</source>
        <translation>撤销移动(&amp;U)</translation>
    </message>
</context>
<context>
    <name>Boilerplate</name>
    <message>
        <source>not analysed for this collection yet: scan again to ignore it</source>
        <translation>这批文档尚未分析常见文字：重新扫描后即可不计这些文字</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>must be between 0 and {max}</source>
        <translation>必须在 0 到 {max} 之间</translation>
    </message>
    <message>
        <source>must be between {min} and 1</source>
        <translation>必须在 {min} 到 1 之间</translation>
    </message>
    <message>
        <source>must be a number of seconds greater than 0</source>
        <translation>必须是大于 0 的秒数</translation>
    </message>
    <message>
        <source>must be at least 1</source>
        <translation>至少为 1</translation>
    </message>
    <message>
        <source>leave out a larger file (default 256 MiB)</source>
        <translation>跳过大于此大小的文件（默认 256 MiB）</translation>
    </message>
    <message>
        <source>give up on one file after S seconds (default 120)</source>
        <translation>单个文件读取超过 S 秒即放弃（默认 120）</translation>
    </message>
    <message>
        <source>memory each reader may use (default: a quarter of this machine&apos;s, 1-8 GiB)</source>
        <translation>每个读取进程可用的内存（默认：本机内存的四分之一，1-8 GiB）</translation>
    </message>
    <message>
        <source>database file (default: {path})</source>
        <translation>数据库文件（默认：{path}）</translation>
    </message>
    <message>
        <source>minhash (Jaccard, default), simhash (Hamming), or both (either one matches)</source>
        <translation>minhash（Jaccard，默认）、simhash（汉明距离），或 both（任一方法匹配即可）</translation>
    </message>
    <message>
        <source>SimHash: at most K differing bits of 64 (0-{max}; default 8)</source>
        <translation>SimHash：64 位中最多 K 位不同（0-{max}；默认 8）</translation>
    </message>
    <message>
        <source>MinHash: shingle-set Jaccard similarity at least T (0-1; default 0.8)</source>
        <translation>MinHash：片段集合的 Jaccard 相似度至少为 T（0-1；默认 0.8）</translation>
    </message>
    <message>
        <source>passages that open or close 10%% or more of the collection&apos;s documents, whose other text is unrelated (letterheads, notices, footers): ignore them when measuring Jaccard (default) or keep them; families of similar documents always keep what they share</source>
        <translation>位于 10%% 或更多文档开头或结尾、而这些文档其余内容互不相关的段落（信头、声明、页脚）：计算 Jaccard 时忽略（默认）或保留；同一类相似文档共有的文字始终保留</translation>
    </message>
    <message>
        <source>report format (default json)</source>
        <translation>报告格式（默认 json）</translation>
    </message>
    <message>
        <source>write the report here (default: standard output)</source>
        <translation>报告写到此处（默认：标准输出）</translation>
    </message>
    <message>
        <source>no progress or summary on standard error</source>
        <translation>不在标准错误输出中显示进度和总结</translation>
    </message>
    <message>
        <source>scan folders (incrementally) and report duplicate groups</source>
        <translation>（增量）扫描文件夹并报告重复组</translation>
    </message>
    <message>
        <source>folders (or files) to scan</source>
        <translation>要扫描的文件夹（或文件）</translation>
    </message>
    <message>
        <source>reader processes (default: cores)</source>
        <translation>读取进程数（默认：CPU 核数）</translation>
    </message>
    <message>
        <source>skip files/folders matching (repeatable)</source>
        <translation>跳过匹配的文件或文件夹（可多次使用）</translation>
    </message>
    <message>
        <source>must be between {min} and {max}</source>
        <translation>须在 {min} 到 {max} 之间</translation>
    </message>
    <message>
        <source>also look for excerpts (documents inside another, however small a part of it they are) or passages (pairs of documents that share a passage word for word); may be given twice (JSON and HTML reports)</source>
        <translation>另外查找摘录（整篇包含在另一文档中的文档，无论只占其多小一部分）或相同段落（逐字共有一段文字的文档对）；可给出两次（JSON 和 HTML 报告）</translation>
    </message>
    <message>
        <source>passages: at least N words in a row, word for word (Chinese: N characters; {min}-{max}; default {default})</source>
        <translation>相同段落：至少连续 N 个词逐字相同（中文：N 个字；{min}–{max}；默认 {default}）</translation>
    </message>
    <message>
        <source>passages: one every part of which more than M documents hold is common wording (a standard clause, a well-known quotation) and not listed ({min}-{max}; default {default})</source>
        <translation>相同段落：每一部分都出现在超过 M 个文档中的段落视为常用措辞（标准条款、名言引语），不列出（{min}–{max}；默认 {default}）</translation>
    </message>
    <message>
        <source>also scan hidden files and folders</source>
        <translation>同时扫描隐藏的文件和文件夹</translation>
    </message>
    <message>
        <source>read scanned PDFs and images (.png .jpg .tif .bmp) with Tesseract OCR; slow: seconds a page</source>
        <translation>用 Tesseract OCR 识别扫描的 PDF 和图片（.png .jpg .tif .bmp）；较慢：每页几秒</translation>
    </message>
    <message>
        <source>the scans&apos; languages, as Tesseract names them (default {languages})</source>
        <translation>扫描件的语言，用 Tesseract 的名称（默认 {languages}）</translation>
    </message>
    <message>
        <source>read again the files whose reader crashed, ran out of memory or of time</source>
        <translation>重新读取上次读取时崩溃、内存不足或超时的文件</translation>
    </message>
    <message>
        <source>the most memory the scan may need, all processes together; a scan that would need more does not start, and says so (default: the memory this computer has free)</source>
        <translation>扫描最多可用的内存（所有进程合计）；预计需要更多内存的扫描不会开始，并会说明原因（默认：这台电脑当前的空闲内存）</translation>
    </message>
    <message>
        <source>start the scan even when it may need more memory than the budget</source>
        <translation>即使扫描可能需要超过预算的内存，也照样开始</translation>
    </message>
    <message>
        <source>re-group the database at other thresholds, without rescanning</source>
        <translation>按新的阈值重新分组，不重新扫描</translation>
    </message>
    <message>
        <source>only files under PATH (repeatable; default: the folders of the last scan)</source>
        <translation>只看 PATH 下的文件（可多次使用；默认：上次扫描的文件夹）</translation>
    </message>
    <message>
        <source>list stored near-duplicates of one file</source>
        <translation>列出某个文件在数据库中的近似重复</translation>
    </message>
    <message>
        <source>only matches under PATH (repeatable; default: the folders of the last scan)</source>
        <translation>只列出 PATH 下的匹配（可多次使用；默认：上次扫描的文件夹）</translation>
    </message>
    <message>
        <source>the same job on Apache Spark, for collections larger than one machine (needs neardup[spark] and Java)</source>
        <translation>在 Apache Spark 上运行同样的查重，用于一台机器装不下的文档集（需要 neardup[spark] 和 Java）</translation>
    </message>
    <message>
        <source>fingerprint, compare and group a collection on Spark; write groups, pairs and a JSON report to a folder</source>
        <translation>在 Spark 上为文档集计算指纹、比较并分组；把分组、文档对和 JSON 报告写入一个文件夹</translation>
    </message>
    <message>
        <source>a folder, a URI Spark reads (hdfs://, s3a://), or a Parquet or JSON-lines table with the columns path and text</source>
        <translation>一个文件夹、Spark 能读取的 URI（hdfs://、s3a://），或含 path 和 text 两列的 Parquet 或 JSON Lines 表</translation>
    </message>
    <message>
        <source>a new folder for the result (Parquet tables, report.json, report.csv, report.html, and what import-spark loads)</source>
        <translation>存放结果的新文件夹（Parquet 表、report.json、report.csv、report.html，以及 import-spark 载入的内容）</translation>
    </message>
    <message>
        <source>an earlier result of this job over the same folder: files found there unchanged (same path, size and modification time) are not read again</source>
        <translation>此作业对同一文件夹的一次早先结果：其中未变的文件（路径、大小和修改时间都相同）不再重新读取</translation>
    </message>
    <message>
        <source>which reports to write beside the tables, separated by commas, of json, csv and html; by default all three (the HTML report is the slowest, as it shows the differences)</source>
        <translation>除数据表外还写哪些报告（json、csv、html 中的几种，以逗号分隔）；默认三种都写（HTML 报告要显示差异，最慢）</translation>
    </message>
    <message>
        <source>Spark master (default: spark-submit&apos;s, or local[*])</source>
        <translation>Spark master（默认：spark-submit 指定的，否则 local[*]）</translation>
    </message>
    <message>
        <source>partitions of the work (default: one per 2,000 documents, at least twice the cores)</source>
        <translation>任务分区数（默认：每 2,000 个文档一个，至少为核心数的两倍）</translation>
    </message>
    <message>
        <source>load a Spark result into a new database, to review it in the app</source>
        <translation>把 Spark 的结果载入一个新数据库，以便在应用中审阅</translation>
    </message>
    <message>
        <source>the folder neardup spark scan wrote (--out)</source>
        <translation>neardup spark scan 写出的文件夹（--out）</translation>
    </message>
    <message>
        <source>where the files the cluster read under FROM are on this machine (repeatable), e.g. hdfs://cluster/uploads=/mnt/uploads</source>
        <translation>集群在 FROM 下读取的文件在本机的位置（可重复），例如 hdfs://cluster/uploads=/mnt/uploads</translation>
    </message>
    <message>
        <source>discover</source>
        <translation>查找文件</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>fingerprint</source>
        <translation>计算指纹</translation>
    </message>
    <message>
        <source>OCR pages</source>
        <translation>OCR 页</translation>
    </message>
    <message>
        <source>save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>index</source>
        <translation>建立索引</translation>
    </message>
    <message>
        <source>boilerplate</source>
        <translation>查找常见文字</translation>
    </message>
    <message>
        <source>match</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>excerpts</source>
        <translation>摘录</translation>
    </message>
    <message>
        <source>shared passages</source>
        <translation>相同段落</translation>
    </message>
    <message>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>ETA {time}</source>
        <translation>剩余 {time}</translation>
    </message>
    <message>
        <source>{rate}/s</source>
        <translation>{rate} 个/秒</translation>
    </message>
    <message>
        <source>Excerpts and passages are written in the JSON and HTML reports, not in CSV.</source>
        <translation>摘录和相同段落写在 JSON 和 HTML 报告中，不在 CSV 中。</translation>
    </message>
    <message>
        <source>--containment is the setting of --find excerpts: add it.</source>
        <translation>--containment 是 --find excerpts 的设置：请加上 --find excerpts。</translation>
    </message>
    <message>
        <source>scan interrupted; everything finished so far is saved — run the same command to resume.</source>
        <translation>扫描已中断；已完成的部分都已保存——再次运行同一命令即可继续。</translation>
    </message>
    <message>
        <source>{summary}; {found}</source>
        <translation>{summary}；{found}</translation>
    </message>
    <message>
        <source>fewer workers (--workers {count})</source>
        <translation>减少工作进程（--workers {count}）</translation>
    </message>
    <message>
        <source>the Spark job, which spreads the work over several computers (neardup spark scan)</source>
        <translation>改用 Spark 作业，把工作分到多台电脑上（neardup spark scan）</translation>
    </message>
    <message>
        <source>closing other programs</source>
        <translation>关闭其他程序</translation>
    </message>
    <message>
        <source>Nothing was read. Ways on: {ways}; or scan anyway with --no-memory-check.</source>
        <translation>尚未读取任何文件。可以：{ways}；或加上 --no-memory-check 照样扫描。</translation>
    </message>
    <message>
        <source>{groups}, {pairs}</source>
        <translation>{groups}，{pairs}</translation>
    </message>
    <message>
        <source>%n group(s)</source>
        <translation>%n 个重复组</translation>
    </message>
    <message>
        <source>%n pair(s) of duplicates</source>
        <translation>%n 对重复文档</translation>
    </message>
    <message>
        <source>Documents under {folders}: {documents}; {found}</source>
        <translation>{folders} 下的文档：{documents}；{found}</translation>
    </message>
    <message>
        <source>Documents in every folder: {documents}; {found}</source>
        <translation>所有文件夹中的文档：{documents}；{found}</translation>
    </message>
    <message>
        <source>interrupted; what was finished is kept, what was under way is not.</source>
        <translation>已中断；已完成的部分会保留，进行到一半的不会保留。</translation>
    </message>
    <message>
        <source>The database holds no documents under {folders}; scan them first (`neardup scan FOLDER`).</source>
        <translation>数据库中没有 {folders} 下的文档；请先扫描它们（`neardup scan FOLDER`）。</translation>
    </message>
    <message>
        <source>Files are read by their name&apos;s ending; other files are skipped, and --include and --exclude choose among these. The types in the report, and the endings read as each: {kinds}.</source>
        <translation>文件按扩展名读取，其他文件会被跳过；--include 和 --exclude 在这些文件中挑选。报告中的类型，以及按各类型读取的扩展名：{kinds}。</translation>
    </message>
    <message>
        <source>With --ocr also: image ({endings}).</source>
        <translation>使用 --ocr 时还读取：image（{endings}）。</translation>
    </message>
    <message>
        <source>Find exact and near-duplicate documents: text, PDF, Word, WPS Office, Excel, PowerPoint, OpenDocument, RTF, e-books, web pages and saved e-mail.</source>
        <translation>查找完全相同和近似重复的文档：文本、PDF、Word、WPS Office、Excel、PowerPoint、OpenDocument、RTF、电子书、网页和保存的电子邮件。</translation>
    </message>
    <message>
        <source>excerpts: at least C of the smaller document&apos;s shingles are in the larger ({min}-1; default {default})</source>
        <translation>摘录：较小文档的片段中至少有 C 的比例出现在较大文档中（{min}-1；默认 {default}）</translation>
    </message>
    <message>
        <source>only files matching, of the types listed below (repeatable)</source>
        <translation>只扫描匹配的文件，限于下面列出的类型（可多次使用）</translation>
    </message>
    <message>
        <source>--words and --common are settings of --find passages: add it.</source>
        <translation>--words 和 --common 是 --find passages 的设置：请加上它。</translation>
    </message>
    <message>
        <source>The database holds no documents under the last scan&apos;s folders; scan them first (`neardup scan FOLDER`).</source>
        <translation>数据库中没有上次扫描的文件夹中的文档；请先扫描它们（`neardup scan FOLDER`）。</translation>
    </message>
    <message>
        <source>{path} is a folder; name one file (to compare a folder, scan it: `neardup scan FOLDER`).</source>
        <translation>{path} 是一个文件夹；请指定一个文件（要比较整个文件夹，请扫描它：`neardup scan 文件夹`）。</translation>
    </message>
    <message>
        <source>{path} is not a file (a pipe, a device or a socket); name a regular file.</source>
        <translation>{path} 不是普通文件（而是管道、设备或套接字）；请指定一个普通文件。</translation>
    </message>
    <message>
        <source>No such file: {path}</source>
        <translation>没有这个文件：{path}</translation>
    </message>
    <message>
        <source>no stored near-duplicates</source>
        <translation>数据库中没有它的近似重复</translation>
    </message>
    <message>
        <source>{jaccard}  {hamming} bits  {matched_by}  {path}</source>
        <translation>{jaccard}  {hamming} 位  {matched_by}  {path}</translation>
    </message>
    <message>
        <source>loaded {documents} documents ({problems} not compared) of the Spark result into {db} (the job grouped them at {method}, Hamming {hamming}, Jaccard {jaccard}). Review them: neardup groups --db {db}, or in the app: neardup-gui --db {db}</source>
        <translation>已把 Spark 结果中的 {documents} 个文档（{problems} 个未比较）载入 {db}（该任务按 {method}、汉明距离 {hamming}、Jaccard {jaccard} 分组）。审阅方法：neardup groups --db {db}，或在应用中：neardup-gui --db {db}</translation>
    </message>
    <message>
        <source>No database at {path}; run `neardup scan FOLDER` first (or pass --db).</source>
        <translation>{path} 处没有数据库；请先运行 `neardup scan FOLDER`（或用 --db 指定）。</translation>
    </message>
    <message>
        <source>neardup spark needs PySpark and Java 17 or newer: .venv/bin/pip install -e &apos;.[spark]&apos; (or pip install &apos;neardup[spark]&apos;) and sudo apt-get install default-jre-headless</source>
        <translation>neardup spark 需要 PySpark 和 Java 17 或更高版本：.venv/bin/pip install -e &apos;.[spark]&apos;（或 pip install &apos;neardup[spark]&apos;），以及 sudo apt-get install default-jre-headless</translation>
    </message>
    <message>
        <source>{given}: name one or more of {known}, separated by commas</source>
        <translation>{given}：请写 {known} 中的一个或几个，以逗号分隔</translation>
    </message>
    <message>
        <source>Spark did not start on {master}: {reason}. Check the --master URL, that the cluster can be reached, and Spark&apos;s own lines above.</source>
        <translation>Spark 未能在 {master} 上启动：{reason}。请检查 --master 地址、集群能否连通，以及上面 Spark 自己输出的内容。</translation>
    </message>
    <message>
        <source>{found}; %n row(s) of the table left out (no path, or a line that is not JSON): see job.json</source>
        <translation>{found}；表中有 %n 行未计入（没有路径，或该行不是 JSON）：见 job.json</translation>
    </message>
    <message>
        <source>{documents} documents ({problems} not compared), {groups} groups holding {grouped}; {pairs} verified pairs of {candidates} candidates; result in {out}</source>
        <translation>{documents} 个文档（{problems} 个未比较），{groups} 组共 {grouped} 个文档；{candidates} 个候选中验证通过 {pairs} 对；结果在 {out}</translation>
    </message>
    <message>
        <source>%n file(s) unchanged since the previous result: not read again</source>
        <translation>%n 个文件自上次结果以来未变：不再重新读取</translation>
    </message>
    <message>
        <source>usage: neardup-gui [--db FILE] [FOLDER...]

The desktop app: add the folders given, scan them, review the groups of duplicates.

  --db FILE   open another database, for this run only
  --version   show the version

The same engine on the command line: neardup --help</source>
        <translation>用法：neardup-gui [--db 文件] [文件夹...]

桌面应用：加入给出的文件夹，扫描它们，检查重复组。

  --db 文件   本次运行打开另一个数据库
  --version   显示版本

命令行中的同一引擎：neardup --help</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <source>Keeping {name}. Edit ▸ Undo takes this back.</source>
        <translation>保留 {name}。“编辑 ▸ 撤销”可以撤回。</translation>
    </message>
    <message>
        <source>The choice could not be saved</source>
        <translation>无法保存这一选择</translation>
    </message>
    <message>
        <source>{name} has the same text as the rest of its group: identical copies stay together.</source>
        <translation>{name} 与组内其他文件的文字相同：完全相同的副本会留在一起。</translation>
    </message>
    <message>
        <source>{name} is no longer grouped with the documents that differ from it; its identical copies stay with it. Edit ▸ Undo takes this back.</source>
        <translation>{name} 已与组内内容不同的文档分开，与它完全相同的副本仍和它在一起。可用“编辑 ▸ 撤销”恢复。</translation>
    </message>
    <message>
        <source>{name} is no longer grouped with the %n other document(s) of its group. Edit ▸ Undo takes this back.</source>
        <translation>{name} 已不再与组内其他 %n 个文档分在一组。可用“编辑 ▸ 撤销”恢复。</translation>
    </message>
    <message>
        <source>The decision could not be saved</source>
        <translation>无法保存这一决定</translation>
    </message>
    <message>
        <source>Common text cannot be left out until these files are scanned again.</source>
        <translation>重新扫描这些文件之后，才能不计常见文字。</translation>
    </message>
    <message>
        <source>Not in the results until the next scan: %n folder(s) added since the last.</source>
        <translation>下次扫描后才会出现在结果中：上次扫描后添加的 %n 个文件夹。</translation>
    </message>
    <message>
        <source>OCR</source>
        <translation>OCR</translation>
    </message>
    <message>
        <source>Changed since the last scan, applied at the next: {settings}.</source>
        <translation>上次扫描后已更改，下次扫描时生效：{settings}。</translation>
    </message>
    <message>
        <source>The pairs could not be measured</source>
        <translation>无法计算文档对</translation>
    </message>
    <message>
        <source>The excerpts could not be looked for</source>
        <translation>无法查找摘录</translation>
    </message>
    <message>
        <source>The shared passages could not be looked for</source>
        <translation>无法查找共同段落</translation>
    </message>
    <message>
        <source>Keeping {keep}; {other} is kept too (a group keeps it, or it is in a reference folder), so it is not ticked.</source>
        <translation>保留 {keep}；{other} 也会保留（某个组保留它，或它位于参考文件夹中），因此不勾选它。</translation>
    </message>
    <message>
        <source>Keeping {keep}; {other} is ticked (Mark ▸ Move Marked to Trash). Edit ▸ Undo takes the keep back.</source>
        <translation>保留 {keep}；已勾选 {other}（标记 ▸ 将已勾选的移到回收站）。编辑 ▸ 撤销可收回这次保留。</translation>
    </message>
    <message>
        <source>Keeping {keep}.</source>
        <translation>保留 {keep}。</translation>
    </message>
    <message>
        <source>{a} and {b} have the same text: identical copies stay together.</source>
        <translation>{a} 和 {b} 的文本相同：完全相同的副本始终在一起。</translation>
    </message>
    <message>
        <source>{a} and {b} are not duplicates: they are no longer paired or grouped together. Edit ▸ Undo takes this back.</source>
        <translation>{a} 和 {b} 不是重复文档：它们不再成对，也不再分在同一组。编辑 ▸ 撤销可收回此操作。</translation>
    </message>
    <message>
        <source>{name} is no longer grouped with the %n other document(s) of this group; it stays in its other groups. Edit ▸ Undo takes this back.</source>
        <translation>{name} 不再与本组的其他 %n 份文档分在一组；它仍留在其他组中。编辑 ▸ 撤销可收回此操作。</translation>
    </message>
    <message>
        <source>The file to keep is chosen by the rule again.</source>
        <translation>要保留的文件重新按规则选择。</translation>
    </message>
    <message>
        <source>The last “not a duplicate” was taken back.</source>
        <translation>已撤回上一次“不是重复”。</translation>
    </message>
    <message>
        <source>The move could not be taken back</source>
        <translation>无法撤销这次移动</translation>
    </message>
    <message>
        <source>The choice could not be taken back</source>
        <translation>无法撤回这个选择</translation>
    </message>
    <message>
        <source>The “not a duplicate” could not be taken back</source>
        <translation>无法撤回这次“不是重复”</translation>
    </message>
    <message>
        <source>The decisions could not be read</source>
        <translation>无法读取决定记录</translation>
    </message>
    <message>
        <source>Took back %n decision(s): those documents may be grouped again.</source>
        <translation>已撤回 %n 条决定：这些文档可以重新分到一组。</translation>
    </message>
    <message>
        <source>The decisions could not be taken back</source>
        <translation>无法撤回这些决定</translation>
    </message>
    <message>
        <source>{count} marked · {size}</source>
        <translation>已标记 {count} 个 · {size}</translation>
    </message>
    <message>
        <source>The files could not be moved</source>
        <translation>无法移动这些文件</translation>
    </message>
    <message>
        <source>Nothing was moved</source>
        <translation>没有移动任何文件</translation>
    </message>
    <message>
        <source>The file to keep is not the one that was compared any more — {problem}.

Nothing was moved. Scan again to compare the files as they are now.</source>
        <translation>要保留的文件已不是当初比较的那个：{problem}。

没有移动任何文件。请重新扫描，按文件现在的内容再比较。</translation>
    </message>
    <message>
        <source>Moved %n file(s) to the trash.</source>
        <translation>已将 %n 个文件移到回收站。</translation>
    </message>
    <message>
        <source>Put %n file(s) back where they were.</source>
        <translation>已将 %n 个文件放回原处。</translation>
    </message>
    <message>
        <source>No file was moved into {folder}.</source>
        <translation>没有文件移入 {folder}。</translation>
    </message>
    <message>
        <source>Moved %n file(s) into {folder}. Edit ▸ Undo puts them back.</source>
        <translation>已将 %n 个文件移到 {folder}。可用“编辑 ▸ 撤销”放回原处。</translation>
    </message>
    <message>
        <source>%n file(s) had gone:</source>
        <translation>%n 个文件已不在原处：</translation>
    </message>
    <message>
        <source>Left where they are:</source>
        <translation>以下文件留在原处：</translation>
    </message>
    <message>
        <source>Left where they are, because they are not the files that were compared any more (scan again to compare them):</source>
        <translation>以下文件留在原处，因为它们已不是当初比较的文件（请重新扫描后再比较）：</translation>
    </message>
    <message>
        <source>%n file(s) could not be moved; each is still where it was:</source>
        <translation>%n 个文件无法移动，都还在原处：</translation>
    </message>
    <message>
        <source>In some groups nothing was moved, because the file to keep is not the one that was compared any more: {problem}.</source>
        <translation>有些组没有移动任何文件，因为要保留的文件已不是当初比较的那个：{problem}。</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <translation>{path}：{reason}</translation>
    </message>
</context>
<context>
    <name>DecisionsDialog</name>
    <message>
        <source>(no file has this text any more)</source>
        <translation>（已没有文件包含这段文字）</translation>
    </message>
    <message>
        <source>{name} and {count} more</source>
        <translation>{name} 及另外 {count} 个</translation>
    </message>
    <message>
        <source>Decisions</source>
        <translation>决定记录</translation>
    </message>
    <message>
        <source>Documents you said are not duplicates of each other, and files you chose to keep. They hold in every grouping and report; take a decision back to let the documents be grouped again, or the rule choose what to keep.</source>
        <translation>您认定互不重复的文档，以及您选择保留的文件。它们在每次分组和每份报告中都有效；撤回一项决定后，这些文档可以重新分到一组，或由规则重新选择要保留的文件。</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <source>Take the selected decisions back</source>
        <translation>撤回选中的决定</translation>
    </message>
    <message>
        <source>kept in its groups (taken back, the rule chooses what to keep)</source>
        <translation>在所在的组中保留（撤回后由规则选择要保留的文件）</translation>
    </message>
    <message>
        <source>is not a duplicate of {names}</source>
        <translation>与 {names} 不是重复</translation>
    </message>
    <message>
        <source>You have made no decisions yet. “Not a duplicate” and “Keep this one” in the groups make them, and they are listed here.</source>
        <translation>您还没有做过任何决定。在组中使用“不是重复”和“保留这个”会产生决定，并列在这里。</translation>
    </message>
    <message>
        <source>Decided</source>
        <translation>决定时间</translation>
    </message>
    <message>
        <source>This document</source>
        <translation>此文档</translation>
    </message>
    <message>
        <source>Take Back</source>
        <translation>撤回</translation>
    </message>
</context>
<context>
    <name>Diff</name>
    <message>
        <source>The same text; only spacing or line breaks differ.</source>
        <translation>文字相同，只有空格或换行不同。</translation>
    </message>
    <message>
        <source>The same text.</source>
        <translation>文字相同。</translation>
    </message>
    <message>
        <source>%n changed region(s) · {share} of the text differs.</source>
        <translation>%n 处改动 · 不同之处占全文{share}。</translation>
    </message>
    <message>
        <source>less than 1 %</source>
        <translation>不到 1%</translation>
    </message>
    <message>
        <source>more than 99 %</source>
        <translation>超过 99%</translation>
    </message>
    <message>
        <source>about {percent} %</source>
        <translation>约 {percent}%</translation>
    </message>
</context>
<context>
    <name>DiffModel</name>
    <message>
        <source>Line {number}, continued</source>
        <translation>第 {number} 行（续）</translation>
    </message>
    <message>
        <source>Line {number}</source>
        <translation>第 {number} 行</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>The longest passage both documents share word for word</source>
        <translation>两个文档逐字相同的最长段落</translation>
    </message>
    <message>
        <source>Ignore spacing and line breaks</source>
        <translation>忽略排版差异</translation>
    </message>
    <message>
        <source>Compare what a reader reads: spacing, blank lines, line breaks inside a paragraph, words split with a hyphen at a line&apos;s end and page headers or footers repeated on every page of a PDF are not counted as differences. Such lines are shown in grey.</source>
        <translation>只比较读者读到的内容：空格、空行、段落内的换行、行尾用连字符断开的单词，以及 PDF 每页重复的页眉页脚，都不算作差异。这些行以灰色显示。</translation>
    </message>
    <message>
        <source>Wrap long lines</source>
        <translation>自动换行</translation>
    </message>
    <message>
        <source>Off: long lines stay on one row, and both sides scroll sideways together</source>
        <translation>关闭时：长行保持在一行内，左右两侧一起横向滚动</translation>
    </message>
    <message>
        <source>▲ Previous</source>
        <translation>▲ 上一处</translation>
    </message>
    <message>
        <source>Previous difference (Shift+F3)</source>
        <translation>上一处差异（Shift+F3）</translation>
    </message>
    <message>
        <source>▼ Next</source>
        <translation>▼ 下一处</translation>
    </message>
    <message>
        <source>Next difference (F3)</source>
        <translation>下一处差异（F3）</translation>
    </message>
    <message>
        <source>Select a document in a group to compare it with the file the group keeps.</source>
        <translation>在重复组中选择一个文档，即可将它与该组保留的文件进行比较。</translation>
    </message>
    <message>
        <source>Passages that open or close 10 % or more of the collection&apos;s documents (letterheads, notices, footers) are left out of these numbers (Leave out common text).</source>
        <translation>位于 10% 以上文档开头或结尾的段落（信头、声明、页脚）不计入这些数字（“不计常见文字”）。</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>How much of the two texts is the same, and the exact measures behind it:</source>
        <translation>两份文本有多少内容相同，以及具体的计算数值：</translation>
    </message>
    <message>
        <source>{share} of the phrases are shared (Jaccard {jaccard}; estimated {estimate})
{left_in_right} of the left text is inside the right; {right_in_left} of the right inside the left
{bits} of 64 fingerprint bits differ (SimHash Hamming distance)</source>
        <translation>{share} 的片段相同（Jaccard {jaccard}；估计值 {estimate}）
左侧文本有 {left_in_right} 包含在右侧中；右侧有 {right_in_left} 包含在左侧中
64 位指纹中有 {bits} 位不同（SimHash 汉明距离）</translation>
    </message>
    <message>
        <source>&lt;b&gt;The same text&lt;/b&gt;</source>
        <translation>&lt;b&gt;内容相同&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{share} the same: the left text is inside the right one</source>
        <translation>{share} 相同：左侧文本包含在右侧文本中</translation>
    </message>
    <message>
        <source>{share} the same: the right text is inside the left one</source>
        <translation>{share} 相同：右侧文本包含在左侧文本中</translation>
    </message>
    <message>
        <source>{share} of the text is the same</source>
        <translation>{share} 的内容相同</translation>
    </message>
    <message>
        <source>Jaccard {value}</source>
        <translation>Jaccard {value}</translation>
    </message>
    <message numerus="yes">
        <source>%n of 64 bits different</source>
        <translation>
            <numerusform>64 位中有 %n 位不同</numerusform>
        </translation>
    </message>
    <message>
        <source>common text left out</source>
        <translation>已不计常见文字</translation>
    </message>
    <message>
        <source>{path}: {problem}</source>
        <translation>{path}：{problem}</translation>
    </message>
    <message>
        <source>Longest shared passage: “{passage}”</source>
        <translation>最长的相同段落：“{passage}”</translation>
    </message>
    <message>
        <source>No passage of 30 characters or more is shared word for word.</source>
        <translation>没有 30 个字符以上逐字相同的段落。</translation>
    </message>
    <message>
        <source>The same text; only spacing or line breaks differ (shown in grey).</source>
        <translation>文字相同，只有空格或换行不同（以灰色显示）。</translation>
    </message>
    <message>
        <source>The same text.</source>
        <translation>文字相同。</translation>
    </message>
    <message>
        <source>Difference {number} · comparing the rest…</source>
        <translation>第 {number} 处不同 · 正在比较其余部分…</translation>
    </message>
    <message>
        <source>Differences found · comparing the rest…</source>
        <translation>已发现不同之处 · 正在比较其余部分…</translation>
    </message>
    <message>
        <source>Difference {number} of {total}</source>
        <translation>第 {number} 处不同，共 {total} 处</translation>
    </message>
    <message numerus="yes">
        <source>%n difference(s)</source>
        <translation>
            <numerusform>%n 处不同</numerusform>
        </translation>
    </message>
    <message>
        <source>{share} of the text differs</source>
        <translation>{share} 的文字不同</translation>
    </message>
    <message>
        <source>spacing and line breaks ignored</source>
        <translation>已忽略空格和换行</translation>
    </message>
</context>
<context>
    <name>EmptyPage</name>
    <message>
        <source>Find duplicate documents</source>
        <translation>查找重复文档</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Choose a folder of text files and PDFs to scan</source>
        <translation>选择一个存放文本文件和 PDF 的文件夹进行扫描</translation>
    </message>
    <message>
        <source>Scan now</source>
        <translation>立即扫描</translation>
    </message>
    <message>
        <source>Scan the folders listed on the left (F5)</source>
        <translation>扫描左侧列出的文件夹（F5）</translation>
    </message>
    <message>
        <source>Scanning… the groups appear here when it is done. You can cancel at any time: what was read is kept, and the next scan continues from there.</source>
        <translation>正在扫描…完成后，重复组会显示在这里。你可以随时取消：已读取的内容会保留，下次扫描从中断处继续。</translation>
    </message>
    <message>
        <source>Ready to scan the folders on the left. Only files whose size or date changed are read again next time.</source>
        <translation>可以扫描左侧的文件夹了。以后再扫描时，只会重新读取大小或日期有变化的文件。</translation>
    </message>
    <message>
        <source>Add a folder of uploads — text files in any encoding, Markdown, PDFs — or drop folders onto this window. neardup groups the documents that are the same or nearly the same, shows what differs, and never deletes a file.</source>
        <translation>添加一个存放上传文件的文件夹（任意编码的文本文件、Markdown、PDF），或把文件夹拖到这个窗口上。neardup 会把相同或几乎相同的文档归为一组，显示它们的不同之处，并且绝不会删除任何文件。</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>No such folder or file: {path}</source>
        <translation>没有这个文件夹或文件：{path}</translation>
    </message>
    <message>
        <source>neardup may not write to the database {path} (read-only file, folder or disk): make it writable, or choose another database file.</source>
        <translation>neardup 无法写入数据库 {path}（文件、文件夹或磁盘是只读的）：请设为可写，或换一个数据库文件。</translation>
    </message>
    <message>
        <source>neardup may not write to the database (read-only file, folder or disk): make it writable, or choose another database file.</source>
        <translation>neardup 无法写入数据库（文件、文件夹或磁盘是只读的）：请设为可写，或换一个数据库文件。</translation>
    </message>
    <message>
        <source>The disk holding the database {path} is full. Free some space and run again; what was saved before is kept.</source>
        <translation>数据库 {path} 所在的磁盘已满。请腾出一些空间后再运行；之前保存的内容都还在。</translation>
    </message>
    <message>
        <source>The disk holding the database is full. Free some space and run again; what was saved before is kept.</source>
        <translation>数据库所在的磁盘已满。请腾出一些空间后再运行；之前保存的内容都还在。</translation>
    </message>
    <message>
        <source>Writing to the database {path} failed ({error}): the disk may be full, failing or disconnected. Check it and run again; what was saved before is kept.</source>
        <translation>写入数据库 {path} 失败（{error}）：磁盘可能已满、出了故障或已断开。请检查后再运行；之前保存的内容都还在。</translation>
    </message>
    <message>
        <source>Writing to the database failed ({error}): the disk may be full, failing or disconnected. Check it and run again; what was saved before is kept.</source>
        <translation>写入数据库失败（{error}）：磁盘可能已满、出了故障或已断开。请检查后再运行；之前保存的内容都还在。</translation>
    </message>
    <message>
        <source>The database {path} is damaged ({error}); neardup stopped where it met the damage. Move the file away (or choose another database file) and scan again to make a new one.</source>
        <translation>数据库 {path} 已损坏（{error}）；neardup 在遇到损坏处停了下来。请把这个文件移走（或换一个数据库文件），再重新扫描以建立新的数据库。</translation>
    </message>
    <message>
        <source>The database is damaged ({error}); neardup stopped where it met the damage. Move the file away (or choose another database file) and scan again to make a new one.</source>
        <translation>数据库已损坏（{error}）；neardup 在遇到损坏处停了下来。请把这个文件移走（或换一个数据库文件），再重新扫描以建立新的数据库。</translation>
    </message>
    <message>
        <source>The database {path} is busy: another neardup is using it. Wait for it, or use another file.</source>
        <translation>数据库 {path} 正忙：另一个 neardup 正在使用它。请等它结束，或换一个文件。</translation>
    </message>
    <message>
        <source>The database is busy: another neardup is using it. Wait for it, or use another file.</source>
        <translation>数据库正忙：另一个 neardup 正在使用它。请等它结束，或换一个文件。</translation>
    </message>
    <message>
        <source>The database {path} failed: {error}.</source>
        <translation>数据库 {path} 出错：{error}。</translation>
    </message>
    <message>
        <source>The database failed: {error}.</source>
        <translation>数据库出错：{error}。</translation>
    </message>
    <message>
        <source>Hamming distance must be between 0 and {max}, not {value}</source>
        <translation>汉明距离必须在 0 到 {max} 之间，不能是 {value}</translation>
    </message>
    <message>
        <source>Jaccard threshold must be between {min} and 1, not {value}</source>
        <translation>Jaccard 阈值必须在 {min} 到 1 之间，不能是 {value}</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: {reason}</source>
        <translation>报告不能写到 {path}：{reason}</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: it is a folder; name a file, e.g. {example}</source>
        <translation>报告不能保存到 {path}：这是一个文件夹；请指定一个文件，例如 {example}</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: it is a symbolic link; name the file it points to, or a new file</source>
        <translation>报告不能写到 {path}：它是一个符号链接；请指定它指向的文件，或一个新文件</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: it is a device, a pipe or a socket, not a file; name a file</source>
        <translation>报告不能写到 {path}：它是设备、管道或套接字，不是文件；请指定一个文件</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: it is the database itself; choose another file</source>
        <translation>报告不能保存到 {path}：这是数据库本身；请换一个文件</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: it is inside a folder being scanned and would be compared as one of the documents; choose a file elsewhere (or a .json report)</source>
        <translation>报告不能写到 {path}：它在正在扫描的文件夹里，会被当作一份文档来比较；请选择别处的文件（或改用 .json 报告）</translation>
    </message>
    <message>
        <source>The report cannot go to {path}: it is one of the documents being compared; choose another file</source>
        <translation>报告不能保存到 {path}：这是正在比较的文档之一；请换一个文件</translation>
    </message>
    <message>
        <source>The database {path} is not a file (a folder, a device, a pipe or a socket); choose a database file, e.g. {example}.</source>
        <translation>数据库 {path} 不是文件（而是文件夹、设备、管道或套接字）；请选择一个数据库文件，例如 {example}。</translation>
    </message>
    <message>
        <source>The database {path} is on a read-only disk or folder and holds changes not yet written into it (its -wal file: neardup was stopped while writing, or is writing it now); open it once where it can be written, or copy it there with its -wal file.</source>
        <translation>数据库 {path} 位于只读磁盘或文件夹上，且还有尚未写入它本身的更改（在它的 -wal 文件里：neardup 写入时被中止，或正在写入）；请在可写的位置打开它一次，或连同它的 -wal 文件一起复制到那里。</translation>
    </message>
    <message>
        <source>The database {path} is on a read-only disk or folder and was written by another version of neardup; copy it somewhere writable to open it.</source>
        <translation>数据库 {path} 位于只读磁盘或文件夹上，且由另一版本的 neardup 写成；请把它复制到可写的位置再打开。</translation>
    </message>
    <message>
        <source>{path} is an SQLite database of another program; choose another file.</source>
        <translation>{path} 是其他程序的 SQLite 数据库；请换一个文件。</translation>
    </message>
    <message>
        <source>{path} was written by a newer neardup (schema {version}); update neardup to open it.</source>
        <translation>{path} 由更新版本的 neardup 写入（结构版本 {version}）；请更新 neardup 后再打开。</translation>
    </message>
    <message>
        <source>The database {path} is damaged: the fingerprints of %n file(s) cannot be read. Scan the same folders again (neardup scan FOLDER, or Scan in the app): those files are read again, and nothing else is lost.</source>
        <translation>数据库 {path} 已损坏：%n 个文件的指纹无法读取。请重新扫描同样的文件夹（neardup scan 文件夹，或在应用中点“扫描”）：这些文件会被重新读取，其他内容不会丢失。</translation>
    </message>
    <message>
        <source>{path} was fingerprinted by another version of neardup (or of the libraries that read documents); scan the folders again to renew its fingerprints (`neardup scan FOLDER`, or Scan in the app).</source>
        <translation>{path} 中的指纹由其他版本的 neardup（或读取文档的库的其他版本）生成；请重新扫描文件夹以更新指纹（`neardup scan FOLDER`，或在应用中点“扫描”）。</translation>
    </message>
    <message>
        <source>{path}: larger than the {limit} MiB limit; not compared.</source>
        <translation>{path}：超过 {limit} MiB 的大小上限，未比较。</translation>
    </message>
    <message>
        <source>{path}: not compared: {reason}. To allow the reader more: --max-memory MIB.</source>
        <translation>{path}：未比较：{reason}。如要允许使用更多内存：--max-memory MIB。</translation>
    </message>
    <message>
        <source>{path}: not compared: {reason}.</source>
        <translation>{path}：未比较：{reason}。</translation>
    </message>
    <message>
        <source>The process writing the database stopped unexpectedly (exit code {code}); what was saved before is kept. Scan again to go on.</source>
        <translation>写入数据库的进程意外停止（退出码 {code}）；之前保存的内容都还在。请再扫描一次以继续。</translation>
    </message>
    <message>
        <source>A path mapping is FROM=TO, e.g. hdfs://cluster/uploads=/mnt/uploads; not {text}</source>
        <translation>路径映射的写法是 FROM=TO，例如 hdfs://cluster/uploads=/mnt/uploads；而不是 {text}</translation>
    </message>
    <message>
        <source>{path} is not the result of neardup spark scan: it has no job.json (give the folder named by --out)</source>
        <translation>{path} 不是 neardup spark scan 的结果：其中没有 job.json（请给出 --out 指定的文件夹）</translation>
    </message>
    <message>
        <source>{path} cannot be read: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>{path} is not a result this version of neardup reads (format {format}, version {version})</source>
        <translation>{path} 不是此版本 neardup 能读取的结果（格式 {format}，版本 {version}）</translation>
    </message>
    <message>
        <source>{path} was made by another version of neardup or of the libraries that read documents (the job&apos;s: {theirs}; this app&apos;s: {ours}); run the job with this version&apos;s package</source>
        <translation>{path} 由另一版本的 neardup 或读取文档的库生成（任务的：{theirs}；本应用的：{ours}）；请用此版本的软件包重新运行该任务</translation>
    </message>
    <message>
        <source>{path} already holds documents; load a Spark result into a new database (--db FILE)</source>
        <translation>{path} 中已有文档；请把 Spark 结果载入一个新数据库（--db FILE）</translation>
    </message>
    <message>
        <source>This result was made from {source}; say where its files are on this machine with --map FROM=TO (FROM as the job saw them, e.g. --map {source}=/mnt/uploads)</source>
        <translation>这个结果来自 {source}；请用 --map FROM=TO 说明其中的文件在本机的什么位置（FROM 按作业看到的写法，例如 --map {source}=/mnt/uploads）</translation>
    </message>
    <message>
        <source>{record}: the field path ({path}) names the same file as an earlier record</source>
        <translation>{record}：字段 path（{path}）与前面的某条记录指向同一个文件</translation>
    </message>
    <message>
        <source>{path} holds {found} records, but job.json counts {expected}: the result is incomplete or was changed</source>
        <translation>{path} 中有 {found} 条记录，但 job.json 记的是 {expected} 条：结果不完整或已被改动</translation>
    </message>
    <message>
        <source>{problem}; nothing was loaded</source>
        <translation>{problem}；没有载入任何内容</translation>
    </message>
    <message>
        <source>{file}, line {line}</source>
        <translation>{file} 第 {line} 行</translation>
    </message>
    <message>
        <source>{record}: the field {field} is missing</source>
        <translation>{record}：缺少字段 {field}</translation>
    </message>
    <message>
        <source>{record}: the field {field} must be {expected}</source>
        <translation>{record}：字段 {field} 必须是{expected}</translation>
    </message>
    <message>
        <source>{record}: the field {field} does not agree with {other}</source>
        <translation>{record}：字段 {field} 与 {other} 不一致</translation>
    </message>
    <message>
        <source>{record}: the field {field} must be given when the status is ok</source>
        <translation>{record}：状态为 ok 时必须给出字段 {field}</translation>
    </message>
    <message>
        <source>a whole number from {low} to {high}</source>
        <translation>从 {low} 到 {high} 的整数</translation>
    </message>
    <message>
        <source>null or a whole number from {low} to {high}</source>
        <translation>null 或从 {low} 到 {high} 的整数</translation>
    </message>
    <message>
        <source>a number from {low} to {high}</source>
        <translation>从 {low} 到 {high} 的数</translation>
    </message>
    <message>
        <source>null or a number of seconds, 0 or more</source>
        <translation>null 或不小于 0 的秒数</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>text of at most {limit} characters</source>
        <translation>不超过 {limit} 个字符的文本</translation>
    </message>
    <message>
        <source>one of {choices}</source>
        <translation>以下之一：{choices}</translation>
    </message>
    <message>
        <source>a path of at most {limit} characters, without NUL</source>
        <translation>不超过 {limit} 个字符、不含 NUL 的路径</translation>
    </message>
    <message>
        <source>base64 of {size} bytes</source>
        <translation>{size} 字节的 base64</translation>
    </message>
    <message>
        <source>null or base64 of {size} bytes</source>
        <translation>null 或 {size} 字节的 base64</translation>
    </message>
    <message>
        <source>null or base64 of {width}-byte values</source>
        <translation>null 或由 {width} 字节数值组成的 base64</translation>
    </message>
    <message>
        <source>a list of whole numbers from {low} to {high}</source>
        <translation>由 {low} 到 {high} 的整数组成的列表</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>一个对象</translation>
    </message>
    <message>
        <source>null or an object</source>
        <translation>null 或一个对象</translation>
    </message>
    <message>
        <source>{record}: the line is not a JSON object</source>
        <translation>{record}：该行不是 JSON 对象</translation>
    </message>
    <message>
        <source>{record}: the line is not UTF-8 text</source>
        <translation>{record}：该行不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>{record}: the line is not JSON</source>
        <translation>{record}：该行不是 JSON</translation>
    </message>
    <message>
        <source>{record}: not a regular file</source>
        <translation>{record}：不是普通文件</translation>
    </message>
    <message>
        <source>{record}: the file is cut short, or is not gzip</source>
        <translation>{record}：文件不完整，或不是 gzip</translation>
    </message>
    <message>
        <source>A path mapping&apos;s TO must be an absolute folder on this machine; not {text}</source>
        <translation>路径映射的 TO 必须是本机上的绝对路径文件夹，而不是 {text}</translation>
    </message>
    <message>
        <source>{record}: the field {field} ({path}) is not an absolute path; say where the cluster&apos;s files are on this machine with --map FROM=TO</source>
        <translation>{record}：字段 {field}（{path}）不是绝对路径；请用 --map FROM=TO 说明集群的文件在本机的什么位置</translation>
    </message>
    <message>
        <source>{record}: the field {field} ({path}) has . or .. in it, or repeated slashes; neardup loads no path that could lead elsewhere</source>
        <translation>{record}：字段 {field}（{path}）含有 . 或 ..，或重复的斜杠；neardup 不载入可能指向别处的路径</translation>
    </message>
    <message>
        <source>{record}: the field {field} ({path}) leads outside {target}, where --map puts it; neardup loads no path outside the folders mapped</source>
        <translation>{record}：字段 {field}（{path}）指向 --map 给出的 {target} 之外；neardup 不载入映射文件夹之外的路径</translation>
    </message>
    <message>
        <source>{record}: the field {field} ({path}) is under no --map FROM; neardup loads no path outside the folders mapped</source>
        <translation>{record}：字段 {field}（{path}）不在任何 --map FROM 之下；neardup 不载入映射文件夹之外的路径</translation>
    </message>
    <message>
        <source>the fingerprint scheme of a version of neardup</source>
        <translation>某一版本 neardup 的指纹方案</translation>
    </message>
    <message>
        <source>{path}: the result folder is a symbolic link; name a new folder</source>
        <translation>{path}：结果文件夹是一个符号链接；请指定一个新文件夹</translation>
    </message>
    <message>
        <source>{path}: the result folder is not empty (or is a file); name a new one</source>
        <translation>{path}：结果文件夹不是空的（或是一个文件）；请指定一个新的</translation>
    </message>
    <message>
        <source>{path}: OCR reads the scans of a folder the executors reach; a URI&apos;s files are read without it</source>
        <translation>{path}：OCR 只读取执行器能访问到的文件夹中的扫描件；URI 中的文件不经 OCR 读取</translation>
    </message>
    <message>
        <source>{path} exists; a Spark result is loaded into a new database</source>
        <translation>{path} 已存在；Spark 结果只能载入新的数据库</translation>
    </message>
    <message>
        <source>{path}: not a result of neardup spark scan (no readable job.json: {reason})</source>
        <translation>{path}：不是 neardup spark scan 的结果（没有可读的 job.json：{reason}）</translation>
    </message>
    <message>
        <source>{path}: not a result of neardup spark scan</source>
        <translation>{path}：不是 neardup spark scan 的结果</translation>
    </message>
</context>
<context>
    <name>ExcerptGroups</name>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Inside</source>
        <translation>包含比例</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>A document that holds others (in bold), and under it each one inside it</source>
        <translation>含有其他文档的文档（粗体），其下是包含在它里面的每一份文档</translation>
    </message>
    <message>
        <source>Where the file is</source>
        <translation>文件所在的位置</translation>
    </message>
    <message>
        <source>How much of the excerpt is inside the document above it</source>
        <translation>摘录有多少内容包含在它上方的文档中</translation>
    </message>
    <message>
        <source>The file&apos;s size</source>
        <translation>文件大小</translation>
    </message>
</context>
<context>
    <name>ExcerptGroupsModel</name>
    <message numerus="yes">
        <source>holds %n excerpt(s)</source>
        <translation>
            <numerusform>含有 %n 份摘录</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <source>… and {count} more</source>
        <translation>……还有 {count} 个</translation>
    </message>
    <message>
        <source>%n ticked file(s) stay: a group&apos;s keeper or in a reference folder.</source>
        <translation>%n 个已勾选的文件不会移动：它们是各组保留的文件，或位于参考文件夹中。</translation>
    </message>
    <message>
        <source>Nothing to move</source>
        <translation>没有可移动的文件</translation>
    </message>
    <message>
        <source>No other member of this group goes: each is in a reference folder, is kept by another group, or holds the whole keeper and more (make it the keeper to keep it instead).</source>
        <translation>这个组里没有其他可移走的成员：每一个都在参考文件夹中、由另一组保留，或者含有保留项的全部内容并且更多（要保留它，请把它设为保留项）。</translation>
    </message>
    <message>
        <source>Kept because in reference folders or kept by another group: {count}</source>
        <translation>因在参考文件夹中或由另一组保留而留下：{count} 个</translation>
    </message>
    <message>
        <source>Kept because each holds the whole keeper and more: {count}</source>
        <translation>因含有保留项的全部内容并且更多而留下：{count} 个</translation>
    </message>
    <message>
        <source>Move %n file(s), {size} in all, to the trash?

Keeping: {keeper}</source>
        <translation>将 %n 个文件（共 {size}）移到回收站？

保留：{keeper}</translation>
    </message>
    <message>
        <source>Move %n marked file(s) from {groups}, {size} in all, to the trash?

Each group keeps its keeper.</source>
        <translation>将来自 {groups}的 %n 个已标记文件（共 {size}）移到回收站？

每组保留的文件不会移动。</translation>
    </message>
    <message>
        <source>Move marked files into</source>
        <translation>将已标记文件移到此文件夹</translation>
    </message>
    <message>
        <source>Choose another folder</source>
        <translation>请选择其他文件夹</translation>
    </message>
    <message>
        <source>Move %n marked file(s) from {groups}, {size} in all, into {destination}?

Each keeps its folders below it: {source} goes to {target}. Each group keeps its keeper.</source>
        <translation>将来自 {groups}的 %n 个已标记文件（共 {size}）移到 {destination}？

文件会在其中保留原来的文件夹结构：{source} 会移到 {target}。每组保留的文件不会移动。</translation>
    </message>
    <message>
        <source>Edit ▸ Undo puts them back.</source>
        <translation>使用“编辑 ▸ 撤销”可以把它们移回原处。</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <source>%n group(s)</source>
        <translation>%n 个组</translation>
    </message>
    <message>
        <source>Every ticked file is a group&apos;s keeper or in a reference folder: those never move.</source>
        <translation>已勾选的文件都是各组保留的文件，或位于参考文件夹中：这些文件永远不会被移动。</translation>
    </message>
    <message>
        <source>Move to trash?</source>
        <translation>移到回收站？</translation>
    </message>
    <message>
        <source>You can restore them from the system trash.</source>
        <translation>你可以从系统回收站中恢复它们。</translation>
    </message>
    <message>
        <source>Move files?</source>
        <translation>移动文件？</translation>
    </message>
    <message>
        <source>Move to Trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <source>Some files were not moved</source>
        <translation>部分文件没有移动</translation>
    </message>
    <message>
        <source>Copied %n path(s).</source>
        <translation>已复制 %n 个路径。</translation>
    </message>
    <message>
        <source>The file was not opened</source>
        <translation>文件没有打开</translation>
    </message>
    <message>
        <source>{path}

could not be opened: no program on this computer is set up to open this kind of file. Show in Folder opens the folder that holds it, or copy its path to open it another way.</source>
        <translation>{path}

无法打开：这台电脑上没有设置用来打开这类文件的程序。可以用“在文件夹中显示”打开它所在的文件夹，或复制它的路径，用别的方式打开。</translation>
    </message>
    <message>
        <source>The folder was not shown</source>
        <translation>文件夹没有打开</translation>
    </message>
    <message>
        <source>The folder that holds

{path}

could not be shown: no program on this computer is set up to show folders. Copy the file&apos;s path to find it another way.</source>
        <translation>存放

{path}

的文件夹无法显示：这台电脑上没有设置用来显示文件夹的程序。可以复制这个文件的路径，用别的方式找到它。</translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>File not found</source>
        <translation>找不到文件</translation>
    </message>
    <message>
        <source>{path}

is no longer there (moved or deleted since the scan). Scan again to update the groups.</source>
        <translation>{path}

已不在原处（扫描之后被移动或删除了）。请重新扫描以更新重复组。</translation>
    </message>
</context>
<context>
    <name>FileKind</name>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>e-mail</source>
        <translation>邮件</translation>
    </message>
    <message>
        <source>WPS Writer</source>
        <translation>WPS 文字</translation>
    </message>
    <message>
        <source>WPS Spreadsheets</source>
        <translation>WPS 表格</translation>
    </message>
    <message>
        <source>WPS Presentation</source>
        <translation>WPS 演示</translation>
    </message>
</context>
<context>
    <name>FolderDrops</name>
    <message numerus="yes">
        <source>Added %n folder(s). Press Scan (F5) to look for duplicates.</source>
        <translation>
            <numerusform>已添加 %n 个文件夹。按“扫描”（F5）查找重复文档。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FoldersPanel</name>
    <message>
        <source>Chinese and English</source>
        <translation>中文和英文</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Chinese (simplified)</source>
        <translation>中文（简体）</translation>
    </message>
    <message>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Folders to scan. Tick a folder to make it a reference folder: its files are originals and are never proposed for removal.</source>
        <translation>要扫描的文件夹。勾选某个文件夹即可设为参考文件夹：其中的文件视为原件，始终保留。</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Choose a folder to scan (you can also drop folders onto the window)</source>
        <translation>选择要扫描的文件夹（也可以把文件夹拖到窗口上）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Stop scanning the selected folder (its files are not touched)</source>
        <translation>不再扫描选中的文件夹（其中的文件不受影响）</translation>
    </message>
    <message>
        <source>only these, e.g. *.md; contracts/*</source>
        <translation>只扫描这些，例如：*.md; 合同/*</translation>
    </message>
    <message>
        <source>Glob patterns, separated by &apos;;&apos; — only matching files are scanned (empty: all)</source>
        <translation>通配符模式，多个之间用 ; 分隔：只扫描匹配的文件（留空则全部扫描）</translation>
    </message>
    <message>
        <source>skip these, e.g. drafts; *.log</source>
        <translation>跳过这些，例如：草稿; 旧版/*</translation>
    </message>
    <message>
        <source>Glob patterns, separated by &apos;;&apos; — matching files and folders are skipped</source>
        <translation>通配符模式，多个之间用 ; 分隔：跳过匹配的文件和文件夹</translation>
    </message>
    <message>
        <source>Text and Markdown</source>
        <translation>文本和 Markdown</translation>
    </message>
    <message>
        <source>Plain text in any common encoding (UTF-8, GB18030, Big5…);
tables saved as .csv or .tsv are read here too, as text</source>
        <translation>各种常见编码的纯文本（UTF-8、GB18030、Big5 等）；
保存为 .csv 或 .tsv 的表格也在这里按文本读取</translation>
    </message>
    <message>
        <source>Documents (Word, WPS, ODT, RTF)</source>
        <translation>文档（Word、WPS、ODT、RTF）</translation>
    </message>
    <message>
        <source>Word (.doc and .docx), WPS writer, OpenDocument text and RTF:
the body and its tables, then footnotes, endnotes and text boxes (of .rtf: the body and tables);
not headers, comments or field codes</source>
        <translation>Word（.doc 和 .docx）、WPS 文字、OpenDocument 文本和 RTF：
先读正文及其中的表格，再读脚注、尾注和文本框（.rtf 只读正文和表格）；
不读页眉页脚、批注和域代码</translation>
    </message>
    <message>
        <source>Spreadsheets (Excel, WPS, ODS)</source>
        <translation>电子表格（Excel、WPS、ODS）</translation>
    </message>
    <message>
        <source>Slides (PowerPoint, WPS, ODP)</source>
        <translation>演示文稿（PowerPoint、WPS、ODP）</translation>
    </message>
    <message>
        <source>PowerPoint (.ppt and .pptx), WPS presentations and OpenDocument presentations:
the text of each slide in order, then the speaker notes</source>
        <translation>PowerPoint（.ppt 和 .pptx）、WPS 演示和 OpenDocument 演示文稿：
按顺序读取每张幻灯片的文字，然后读取演讲者备注</translation>
    </message>
    <message>
        <source>Web pages and EPUB e-books: the text a reader sees, without scripts or styles</source>
        <translation>网页和 EPUB 电子书：读者看到的文字，不含脚本和样式</translation>
    </message>
    <message>
        <source>The subject and the text of the message; attachments are named, not compared</source>
        <translation>邮件的主题和正文；附件只列出名称，不参与比较</translation>
    </message>
    <message>
        <source>Files ending in {endings}</source>
        <translation>扩展名：{endings}</translation>
    </message>
    <message>
        <source>PDFs with a text layer (scanned PDFs are listed as problems, unless OCR reads them)</source>
        <translation>带文字层的 PDF（扫描件 PDF 会列在“问题”中，除非用 OCR 识别）</translation>
    </message>
    <message>
        <source>Excel (.xls and .xlsx), WPS spreadsheets and OpenDocument spreadsheets:
each cell&apos;s value (a date as 2024-03-05, whatever its format), row by row, sheet by sheet; a formula&apos;s result, not the formula.
Tables saved as .csv or .tsv are read as text, under “{text}”.</source>
        <translation>Excel（.xls 和 .xlsx）、WPS 表格和 OpenDocument 电子表格：
逐行、逐张工作表读取每个单元格的值（日期一律读作 2024-03-05 的形式，不论其显示格式）；读取公式的结果，而不是公式本身。
另存为 .csv 或 .tsv 的表格按文本读取，归在“{text}”中。</translation>
    </message>
    <message>
        <source>Web pages and e-books</source>
        <translation>网页和电子书</translation>
    </message>
    <message>
        <source>Saved e-mail</source>
        <translation>保存的电子邮件</translation>
    </message>
    <message>
        <source>Read scans and images with OCR (slow)</source>
        <translation>用 OCR 识别扫描件和图片（较慢）</translation>
    </message>
    <message>
        <source>PDFs without a text layer and images (.png, .jpg, .tif, .bmp) are read by Tesseract OCR, a few seconds a page; what it reads is kept, so each page is read once</source>
        <translation>没有文字层的 PDF 和图片（.png、.jpg、.tif、.bmp）由 Tesseract OCR 识别，每页几秒；识别结果会保存下来，每页只识别一次</translation>
    </message>
    <message>
        <source>The languages of the scans&apos; text</source>
        <translation>扫描件文字的语言</translation>
    </message>
    <message>
        <source>☑ reference folder: originals, never moved to the trash</source>
        <translation>☑ 参考文件夹：存放原件，永远不会被移到回收站</translation>
    </message>
    <message>
        <source>Include</source>
        <translation>包含</translation>
    </message>
    <message>
        <source>Exclude</source>
        <translation>排除</translation>
    </message>
    <message>
        <source>File types</source>
        <translation>文件类型</translation>
    </message>
    <message>
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
    <message>
        <source>{folder}
Ticked: reference folder (originals, never proposed for removal)</source>
        <translation>{folder}
勾选后即为参考文件夹（存放原件，始终保留）</translation>
    </message>
    <message>
        <source>Folder not found</source>
        <translation>找不到文件夹</translation>
    </message>
    <message>
        <source>These folders are not there any more; remove them or reconnect the drive:

{folders}</source>
        <translation>以下文件夹已经不在了；请移除它们，或重新连接所在的磁盘：

{folders}</translation>
    </message>
    <message>
        <source>Nothing to scan</source>
        <translation>没有可扫描的文件</translation>
    </message>
    <message>
        <source>Tick at least one file type.</source>
        <translation>请至少勾选一种文件类型。</translation>
    </message>
    <message>
        <source>OCR is not installed</source>
        <translation>未安装 OCR</translation>
    </message>
</context>
<context>
    <name>Forecast</name>
    <message>
        <source>A scan of {documents} files may need about {need} of memory, more than the {budget} it may use.</source>
        <translation>扫描这 {documents} 个文件可能需要约 {need} 内存，超过了它可以使用的 {budget}。</translation>
    </message>
    <message>
        <source>A scan of {documents} files may need about {need} of memory, and this computer has {budget} free: it could slow to a crawl, or the scan stop before it ends.</source>
        <translation>扫描这 {documents} 个文件可能需要约 {need} 内存，而这台电脑只有 {budget} 空闲：电脑可能变得非常缓慢，扫描也可能中途停止。</translation>
    </message>
    <message>
        <source>With %n worker(s) it would need about {need} and take longer.</source>
        <translation>用 %n 个工作进程约需 {need}，但耗时更长。</translation>
    </message>
    <message>
        <source>Even with one worker it would need about {need}.</source>
        <translation>即使只用一个工作进程，也需要约 {need}。</translation>
    </message>
</context>
<context>
    <name>GroupMembersModel</name>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>File name; the file the group keeps comes first</source>
        <translation>文件名；该组保留的文件排在最前</translation>
    </message>
    <message>
        <source>Folder of the file</source>
        <translation>文件所在的文件夹</translation>
    </message>
    <message>
        <source>The file&apos;s format: text, PDF, DOCX, ODT, RTF, EPUB or HTML</source>
        <translation>文件格式：文本、PDF、DOCX、ODT、RTF、EPUB 或 HTML</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>Bits differ</source>
        <translation>不同位数</translation>
    </message>
    <message>
        <source>How much of the text is the same as the keeper&apos;s; hover over a value for the exact measures</source>
        <translation>与保留项相同的内容所占比例；鼠标悬停在数值上可查看详细数据</translation>
    </message>
    <message>
        <source>Word fingerprint: how many of its 64 bits differ from the keeper&apos;s (SimHash Hamming distance)</source>
        <translation>词语指纹：64 位中有多少位与保留项不同（SimHash 汉明距离）</translation>
    </message>
    <message>
        <source>File size</source>
        <translation>文件大小</translation>
    </message>
    <message>
        <source>Last modified</source>
        <translation>最后修改时间</translation>
    </message>
    <message>
        <source>keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>{name}  ✓ marked</source>
        <translation>{name}  ✓ 已标记</translation>
    </message>
    <message>
        <source>The file this group keeps.</source>
        <translation>该组保留的文件。</translation>
    </message>
    <message>
        <source>In a reference folder: never proposed for removal.</source>
        <translation>位于参考文件夹中：始终保留。</translation>
    </message>
</context>
<context>
    <name>GroupTreeModel</name>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>Bits differ</source>
        <translation>不同位数</translation>
    </message>
    <message>
        <source>Jaccard</source>
        <translation>Jaccard</translation>
    </message>
    <message>
        <source>File name; a group row names the file it keeps</source>
        <translation>文件名；组所在行显示该组保留的文件</translation>
    </message>
    <message>
        <source>How much of the text is the same as the keeper&apos;s (a group shows its lowest–highest); hover over a value for the exact measures</source>
        <translation>与保留项相同的内容所占比例（组所在行显示最低–最高）；鼠标悬停在数值上可查看详细数据</translation>
    </message>
    <message>
        <source>Word fingerprint: how many of its 64 bits differ from the keeper&apos;s (SimHash Hamming distance; a group shows its largest)</source>
        <translation>词语指纹：64 位中有多少位与保留项不同（SimHash 汉明距离；组所在行显示最大值）</translation>
    </message>
    <message>
        <source>For experts: exact Jaccard similarity of the shingle sets, to the keeper</source>
        <translation>供专业人员参考：与保留项的片段集合的精确 Jaccard 相似度</translation>
    </message>
    <message>
        <source>For experts: share of the smaller text found inside the other (an excerpt inside a longer document scores 1.0)</source>
        <translation>供专业人员参考：较短文本有多少包含在另一份中（长文档中的节选为 1.0）</translation>
    </message>
    <message>
        <source>The file&apos;s format: text, PDF, DOCX, ODT, RTF, EPUB or HTML</source>
        <translation>文件格式：文本、PDF、DOCX、ODT、RTF、EPUB 或 HTML</translation>
    </message>
    <message>
        <source>Right-click a column&apos;s title to show or hide columns.</source>
        <translation>右键单击列标题可显示或隐藏列。</translation>
    </message>
    <message>
        <source>{name}  — kept, as you chose</source>
        <translation>{name}  — 按你的选择保留</translation>
    </message>
    <message>
        <source>{name}  — kept by another group</source>
        <translation>{name}  — 由另一组保留</translation>
    </message>
    <message>
        <source>The file this group keeps; the others are measured against it.</source>
        <translation>本组保留的文件；其他成员都与它比较。</translation>
    </message>
    <message>
        <source>Group {id} · {name} — {count} documents · exact</source>
        <translation>第 {id} 组 · {name} — {count} 个文档 · 完全重复</translation>
    </message>
    <message>
        <source>Group {id} · {name} — {count} documents · near</source>
        <translation>第 {id} 组 · {name} — {count} 个文档 · 近似重复</translation>
    </message>
    <message>
        <source>About: {topic} (the words its documents share)
</source>
        <translation>主题：{topic}（组内文档共有的词）
</translation>
    </message>
    <message>
        <source>{count} documents; the keeper is {path}
Every two documents of the group are duplicates at your setting. Each member is measured against the keeper: from {lowest} to {highest} of the text is the same.</source>
        <translation>{count} 个文档；保留的文件是 {path}
按您的设置，本组中任意两个文档都互为重复。每个成员都与保留的文件比较：相同的文字占 {lowest} 到 {highest}。</translation>
    </message>
    <message>
        <source>same text</source>
        <translation>内容相同</translation>
    </message>
    <message>
        <source>Containment</source>
        <translation>包含度</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Folder of the file</source>
        <translation>文件所在的文件夹</translation>
    </message>
    <message>
        <source>File size (a group shows the total)</source>
        <translation>文件大小（组所在的行显示总和）</translation>
    </message>
    <message>
        <source>Last modified</source>
        <translation>最后修改时间</translation>
    </message>
    <message>
        <source>{name}  — keep</source>
        <translation>{name}  — 保留</translation>
    </message>
    <message>
        <source>Another group keeps this file, so it is never proposed for removal.</source>
        <translation>另一组保留了这个文件，所以它不会被建议删除。</translation>
    </message>
    <message>
        <source>Also listed under group {ids}: it is a duplicate of documents there that are not duplicates of this group&apos;s.</source>
        <translation>也列在第 {ids} 组：它与那里的一些文档重复，而那些文档与本组的文档并不重复。</translation>
    </message>
    <message>
        <source>In a reference folder: an original, never proposed for removal.</source>
        <translation>位于参考文件夹中：是原件，始终保留。</translation>
    </message>
</context>
<context>
    <name>GroupView</name>
    <message>
        <source>{count} documents with the same text. Numbers are against the file kept, {name}; double-click a member to see what differs.</source>
        <translation>{count} 个文档的文字相同。数值都是与保留的文件 {name} 相比得出的；双击某个文档可查看不同之处。</translation>
    </message>
    <message>
        <source>{count} documents with nearly the same text: every two of them are duplicates at your setting. Each is measured against the file kept, {name}. Double-click a member to see what differs.</source>
        <translation>{count} 个文档的文字几乎相同：按您的设置，其中任意两个都互为重复。每个文档都与保留的文件 {name} 比较。双击成员可查看差异。</translation>
    </message>
    <message>
        <source>About: {topic}.</source>
        <translation>主题：{topic}。</translation>
    </message>
</context>
<context>
    <name>GroupsPage</name>
    <message>
        <source>The original</source>
        <translation>原件</translation>
    </message>
    <message>
        <source>The copy with the most identical twins; a document you edit (text, Word, OpenDocument) over a web page or e-book, and those over a PDF; then the oldest</source>
        <translation>相同副本最多的那份；可编辑的文档（文本、Word、OpenDocument）优先于网页或电子书，它们又优先于 PDF；其次是最早的</translation>
    </message>
    <message>
        <source>The oldest</source>
        <translation>最早的</translation>
    </message>
    <message>
        <source>The file modified longest ago</source>
        <translation>修改时间最早的文件</translation>
    </message>
    <message>
        <source>The newest</source>
        <translation>最新的</translation>
    </message>
    <message>
        <source>The file modified last</source>
        <translation>最后修改的文件</translation>
    </message>
    <message>
        <source>The largest</source>
        <translation>最大的</translation>
    </message>
    <message>
        <source>The biggest file</source>
        <translation>体积最大的文件</translation>
    </message>
    <message>
        <source>The shortest path</source>
        <translation>路径最短的</translation>
    </message>
    <message>
        <source>The file nearest the top of its folders</source>
        <translation>在文件夹中层级最浅的文件</translation>
    </message>
    <message>
        <source>Filter by path or topic…</source>
        <translation>按路径或主题筛选…</translation>
    </message>
    <message>
        <source>Show only the groups whose topic, or a member&apos;s path, contains this text (Ctrl+F)</source>
        <translation>只显示主题或某个成员的路径包含这段文字的组（Ctrl+F）</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>所有组</translation>
    </message>
    <message>
        <source>Exact duplicates</source>
        <translation>完全重复</translation>
    </message>
    <message>
        <source>Near duplicates</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <source>Exact: the same text after normalising; near: similar</source>
        <translation>完全重复：规范化后文字完全相同；近似重复：内容相似</translation>
    </message>
    <message>
        <source>Keep this one</source>
        <translation>保留这个</translation>
    </message>
    <message>
        <source>Not a duplicate</source>
        <translation>不是重复</translation>
    </message>
    <message>
        <source>Move others to trash…</source>
        <translation>将其余文件移到回收站…</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>重复组</translation>
    </message>
    <message>
        <source>Mark all but the keepers</source>
        <translation>标记除保留项外的所有文件</translation>
    </message>
    <message>
        <source>Mark by rule…</source>
        <translation>按规则标记…</translation>
    </message>
    <message>
        <source>Unmark all</source>
        <translation>全部取消标记</translation>
    </message>
    <message>
        <source>Which file each group keeps unless you chose one (Keep this one). A file in a reference folder is always kept first.</source>
        <translation>你没有手动指定（“保留这个”）时，每个组保留哪个文件。参考文件夹中的文件总是优先保留。</translation>
    </message>
    <message>
        <source>Keep:</source>
        <translation>保留：</translation>
    </message>
    <message>
        <source>Move marked to trash…</source>
        <translation>将已标记文件移到回收站…</translation>
    </message>
    <message>
        <source>Move marked to folder…</source>
        <translation>将已标记文件移到文件夹…</translation>
    </message>
    <message>
        <source>Copy paths</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Marks</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>No document is inside another at this setting.</source>
        <translation>在这个设置下，没有文档包含在另一份文档中。</translation>
    </message>
    <message>
        <source>No document that holds excerpts has this in its path, nor its excerpts.</source>
        <translation>含有摘录的文档及其摘录的路径中都没有这段文字。</translation>
    </message>
    <message numerus="yes">
        <source>No duplicates among the %Ln document(s) compared, at these settings. Lower “How similar must documents be?” to look for looser matches.</source>
        <translation>
            <numerusform>按当前设置，比较过的 %Ln 个文档中没有重复。调低“文档要多相似才算重复？”可以找到相似度较低的文档。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No duplicates among the %Ln document(s) compared, at these settings. Raise “How much may fingerprints differ?” to look for looser matches.</source>
        <translation>
            <numerusform>按当前设置，比较过的 %Ln 个文档中没有重复。调高“指纹最多可以相差多少？”可以找到相似度较低的文档。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HistogramWidget</name>
    <message>
        <source>How many pairs of documents lie at each similarity (a sample of at most 3,000 documents). The pairs on the highlighted side of the line are grouped; a valley between two hills is a natural place for the line.</source>
        <translation>各个相似度上有多少对文档（最多抽取 3,000 份文档统计）。竖线高亮一侧的文档对会被分组；两座“山峰”之间的低谷通常是放竖线的好位置。</translation>
    </message>
    <message>
        <source>Pairs of documents by similarity</source>
        <translation>按相似度统计的文档对</translation>
    </message>
    <message>
        <source>How similar the pairs of documents are appears here after a scan</source>
        <translation>扫描后，这里会显示各对文档的相似程度</translation>
    </message>
    <message>
        <source>{bits} bits</source>
        <translation>{bits} 位</translation>
    </message>
</context>
<context>
    <name>HtmlReport</name>
    <message>
        <source>neardup report — %n group(s)</source>
        <translation>neardup 报告 — %n 个重复组</translation>
    </message>
    <message>
        <source>Duplicate documents</source>
        <translation>重复文档</translation>
    </message>
    <message>
        <source>documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>groups</source>
        <translation>重复组</translation>
    </message>
    <message>
        <source>exact groups</source>
        <translation>完全重复的组</translation>
    </message>
    <message>
        <source>pairs of duplicates</source>
        <translation>对重复文档</translation>
    </message>
    <message>
        <source>redundant copies</source>
        <translation>多余的副本</translation>
    </message>
    <message>
        <source>problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>excerpts</source>
        <translation>摘录</translation>
    </message>
    <message>
        <source>pairs sharing passages</source>
        <translation>有相同段落的文档对</translation>
    </message>
    <message>
        <source>scan time</source>
        <translation>扫描用时</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>Folders</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>MinHash: Jaccard ≥ {jaccard} of the shingle sets (3 words, or 3 characters); exact duplicates always</source>
        <translation>MinHash：片段集合（3 个词或 3 个字）的 Jaccard ≥ {jaccard}；完全重复的始终算在内</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>left out of Jaccard: %n passage(s) at the start or end of {share} or more of the documents, found in {documents} of them; {families} shared by families of similar documents kept</source>
        <translation>计算 Jaccard 时已忽略：%n 个位于 {share} 或更多文档开头或结尾的段落，出现在其中 {documents} 个文档里；同一类相似文档共有的 {families} 个段落予以保留</translation>
    </message>
    <message>
        <source>counted like any other text</source>
        <translation>与其他文字一样参与计算</translation>
    </message>
    <message>
        <source>Boilerplate</source>
        <translation>常见文字</translation>
    </message>
    <message>
        <source>Groups ({count})</source>
        <translation>重复组（{count}）</translation>
    </message>
    <message>
        <source>No duplicates at these thresholds.</source>
        <translation>按当前阈值没有找到重复。</translation>
    </message>
    <message>
        <source>Differences are shown for the first {shown} groups, the largest; the other {others} list their documents and numbers: open them in the app to compare.</source>
        <translation>只为前 {shown} 组（最大的几组）显示差异；其余 {others} 组只列出文档和数值：在应用中打开它们即可比较。</translation>
    </message>
    <message>
        <source>Problems ({count})</source>
        <translation>问题（{count}）</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
    <message>
        <source>These files were not compared.</source>
        <translation>以下文件未参与比较。</translation>
    </message>
    <message>
        <source>Every file was read.</source>
        <translation>所有文件都已读取。</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>完全重复</translation>
    </message>
    <message>
        <source>near</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <source>a member shares far less of its text with the keeper than the threshold: it is in the group through other members</source>
        <translation>有成员与保留项相同的文字远少于阈值：它是通过其他成员进入本组的</translation>
    </message>
    <message>
        <source>chained</source>
        <translation>链式</translation>
    </message>
    <message>
        <source>Group {number}</source>
        <translation>第 {number} 组</translation>
    </message>
    <message>
        <source>{group}: {topic}</source>
        <translation>{group}：{topic}</translation>
    </message>
    <message>
        <source>%n document(s) · the same text</source>
        <translation>%n 个文档 · 内容完全相同</translation>
    </message>
    <message>
        <source>%n document(s) · at least {share} of the text the same</source>
        <translation>%n 个文档 · 至少 {share} 的内容相同</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>how much of the text is the same as the keeper&apos;s</source>
        <translation>与保留项相同的内容占多少</translation>
    </message>
    <message>
        <source>Same bytes as the keeper: %n member(s).</source>
        <translation>与保留项完全相同（字节一致）的成员：%n 个。</translation>
    </message>
    <message>
        <source>Excerpts ({count})</source>
        <translation>摘录（{count}）</translation>
    </message>
    <message>
        <source>No document is inside another at this setting.</source>
        <translation>在此设置下，没有文档包含在另一份文档中。</translation>
    </message>
    <message>
        <source>holds %n excerpt(s)</source>
        <translation>含有 %n 份摘录</translation>
    </message>
    <message>
        <source>{inner} is inside {outer} ({share})</source>
        <translation>{inner} 包含在 {outer} 中（{share}）</translation>
    </message>
    <message>
        <source>Passages both hold word for word:</source>
        <translation>两者逐字相同的段落：</translation>
    </message>
    <message>
        <source>Shared passages ({count})</source>
        <translation>相同段落（{count}）</translation>
    </message>
    <message>
        <source>Pairs of documents that hold the same passage of at least {words} words (Chinese: characters) word for word, whatever else they hold.</source>
        <translation>逐字共有一段至少 {words} 个词（中文：字）的文字的文档对，无论其余内容如何。</translation>
    </message>
    <message>
        <source>No two documents share a passage this long.</source>
        <translation>没有两个文档共有这么长的段落。</translation>
    </message>
    <message>
        <source>{a} and {b}: %n passage(s), the longest {words} words</source>
        <translation>{a} 与 {b}：%n 段，最长 {words} 个词</translation>
    </message>
    <message>
        <source>{words} words, {in_a} into the first document and {in_b} into the second</source>
        <translation>{words} 个词，位于第一个文档的 {in_a} 处、第二个文档的 {in_b} 处</translation>
    </message>
    <message>
        <source>Differences: keeper ↔ {document}</source>
        <translation>差异：保留项 ↔ {document}</translation>
    </message>
    <message>
        <source>Hamming</source>
        <translation>汉明距离</translation>
    </message>
    <message>
        <source>SimHash Hamming distance ≤ {hamming} of 64 bits, checked: pairs sharing less than {floor} of their shingles left out; exact duplicates always</source>
        <translation>SimHash：64 位中的汉明距离 ≤ {hamming}，并经核对：共同片段不到 {floor} 的文档对不算；完全重复的始终算在内</translation>
    </message>
    <message>
        <source>either Jaccard ≥ {jaccard} of the shingle sets (3 words, or 3 characters), or SimHash Hamming distance ≤ {hamming} of 64 bits, checked: pairs sharing less than {floor} of their shingles left out; exact duplicates always</source>
        <translation>片段集合（3 个词或 3 个字）的 Jaccard ≥ {jaccard}，或 SimHash 64 位中的汉明距离 ≤ {hamming}（并经核对：共同片段不到 {floor} 的文档对不算），满足其一即可；完全重复的始终算在内</translation>
    </message>
    <message>
        <source>differing bits of 64</source>
        <translation>64 位中不同的位数</translation>
    </message>
    <message>
        <source>J est.</source>
        <translation>J 估计</translation>
    </message>
    <message>
        <source>MinHash estimate</source>
        <translation>MinHash 估计值</translation>
    </message>
    <message>
        <source>exact Jaccard of the shingle sets</source>
        <translation>片段集合的精确 Jaccard</translation>
    </message>
    <message>
        <source>Containment</source>
        <translation>包含度</translation>
    </message>
    <message>
        <source>share of the smaller text found in the other</source>
        <translation>较短文本出现在另一份中的比例</translation>
    </message>
    <message>
        <source>keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Differences shown for the {shown} least similar of {members} members; open the group in the app to compare the others.</source>
        <translation>只显示了 {members} 个成员中最不相似的 {shown} 个的差异；在应用中打开这一组可比较其余的文档。</translation>
    </message>
    <message>
        <source>Documents inside another: at least {share} of their text is in it, however small a part of it they are (a chapter copied out of a report). Each document that holds others is listed with what it holds; near-copies are inside each other too.</source>
        <translation>包含在另一份文档中的文档：它们至少有 {share} 的文字出现在那份文档中，无论只占那份文档多小的一部分（例如从报告中摘出的一章）。每份含有其他文档的文档都列出它所含有的文档；近似副本也彼此包含。</translation>
    </message>
    <message>
        <source>… and %n more, in the JSON report</source>
        <translation>……另有 %n 条，见 JSON 报告</translation>
    </message>
    <message>
        <source>… more differences; open the pair in the app to see them all</source>
        <translation>… 还有更多差异；在应用中打开这一对文档可查看全部</translation>
    </message>
    <message>
        <source>%n unchanged line(s)</source>
        <translation>%n 行未改动</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>neardup — duplicate documents</source>
        <translation>neardup — 重复文档</translation>
    </message>
    <message>
        <source>neardup — {database}</source>
        <translation>neardup — {database}</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>重复组</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>文档对</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Not enough memory for this scan</source>
        <translation>内存不足，无法进行这次扫描</translation>
    </message>
    <message numerus="yes">
        <source>Scan with %n worker(s)</source>
        <translation>
            <numerusform>用 %n 个工作进程扫描</numerusform>
        </translation>
    </message>
    <message>
        <source>Scan anyway</source>
        <translation>照样扫描</translation>
    </message>
    <message>
        <source>Importing the Spark result… {done} of {total}</source>
        <translation>正在导入 Spark 结果…… 第 {done} 个，共 {total} 个</translation>
    </message>
    <message numerus="yes">
        <source>%n document(s) of the Spark result loaded into {path}, opened in a new window.</source>
        <translation>
            <numerusform>已将 Spark 结果中的 %n 个文档载入 {path}，并在新窗口中打开。</numerusform>
        </translation>
    </message>
    <message>
        <source>Importing the Spark result…</source>
        <translation>正在导入 Spark 结果……</translation>
    </message>
    <message>
        <source>The Spark result was not imported</source>
        <translation>未能导入 Spark 结果</translation>
    </message>
    <message>
        <source>{name} ({count})</source>
        <translation>{name}（{count}）</translation>
    </message>
    <message>
        <source>The scan failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <source>Scanned {summary}.</source>
        <translation>扫描完成：{summary}。</translation>
    </message>
    <message>
        <source>Scan cancelled. Everything read so far is kept: press Scan to go on from there.</source>
        <translation>扫描已取消。已读取的内容都会保留，再次扫描时从中断处继续。</translation>
    </message>
    <message>
        <source>The database is damaged</source>
        <translation>数据库已损坏</translation>
    </message>
    <message>
        <source>neardup&apos;s database is damaged and cannot be read:
{path}</source>
        <translation>neardup 的数据库已损坏，无法读取：
{path}</translation>
    </message>
    <message>
        <source>Your documents are not affected: the database holds what neardup found in them, made again by the next scan, and your “not a duplicate” decisions, which a new database starts without. The damaged one is kept beside it.</source>
        <translation>你的文档不受影响：数据库里存的是 neardup 从文档中得到的信息（下次扫描会重新生成），以及你做出的“不是重复”决定（新数据库里不会有这些决定）。损坏的数据库会另存在同一文件夹中。</translation>
    </message>
    <message>
        <source>Start a New Database</source>
        <translation>新建数据库</translation>
    </message>
    <message>
        <source>The damaged database was kept as {path}. Press Scan to build a new one.</source>
        <translation>损坏的数据库已保留为 {path}。按“扫描”建立新的数据库。</translation>
    </message>
    <message>
        <source>The last results could not be opened</source>
        <translation>无法打开上次的结果</translation>
    </message>
    <message>
        <source>Measuring the pairs…</source>
        <translation>正在计算文档对…</translation>
    </message>
    <message>
        <source>Looking for excerpts…</source>
        <translation>正在查找摘录…</translation>
    </message>
    <message>
        <source>Nothing was read. Closing other programs frees memory. A collection too large for this computer can be scanned by the Spark job, on several computers (see the guide).</source>
        <translation>尚未读取任何文件。关闭其他程序可以腾出内存。这台电脑容纳不下的文件集，可以用 Spark 作业在多台电脑上扫描（见使用指南）。</translation>
    </message>
    <message>
        <source>Looking for shared passages…</source>
        <translation>正在查找共同段落…</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <source>neardup speaks the new language when it starts again. Restart now? Your folders, decisions and marks are kept.</source>
        <translation>neardup 重新启动后才会使用新的语言。现在重新启动吗？你的文件夹、决定和标记都会保留。</translation>
    </message>
    <message>
        <source>About neardup</source>
        <translation>关于 neardup</translation>
    </message>
    <message>
        <source>Finds exact and near-duplicate documents with SimHash (Charikar; Manku et al.) and MinHash (Broder), verified exactly.</source>
        <translation>用 SimHash（Charikar；Manku 等）和 MinHash（Broder）查找完全重复和近似重复的文档，并逐一精确核实。</translation>
    </message>
    <message>
        <source>Database: {path}</source>
        <translation>数据库：{path}</translation>
    </message>
</context>
<context>
    <name>MarkRuleDialog</name>
    <message>
        <source>Mark by rule</source>
        <translation>按规则标记</translation>
    </message>
    <message>
        <source>any folder</source>
        <translation>任意文件夹</translation>
    </message>
    <message>
        <source>Only files in this folder or its subfolders</source>
        <translation>只包括此文件夹及其子文件夹中的文件</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>e.g.  copy   or   *.pdf   or   */old/*</source>
        <translation>例如  copy   或   *.pdf   或   */old/*</translation>
    </message>
    <message>
        <source>A word the path contains, or a pattern with * and ?; case does not matter</source>
        <translation>路径中包含的词，或带 * 和 ? 的通配模式；不区分大小写</translation>
    </message>
    <message>
        <source>Modified before</source>
        <translation>修改时间早于</translation>
    </message>
    <message>
        <source>Modified on or after</source>
        <translation>修改时间不早于</translation>
    </message>
    <message>
        <source>At least (KB)</source>
        <translation>至少（KB）</translation>
    </message>
    <message>
        <source>At most (KB)</source>
        <translation>至多（KB）</translation>
    </message>
    <message>
        <source>In folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>Path contains:</source>
        <translation>路径包含：</translation>
    </message>
    <message>
        <source>Files that meet every condition given are ticked. A group&apos;s keeper and files in reference folders are never ticked.</source>
        <translation>满足所有已设条件的文件会被勾选。组的保留项和参考文件夹中的文件永远不会被勾选。</translation>
    </message>
    <message>
        <source>Mark</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>Unmark</source>
        <translation>取消标记</translation>
    </message>
    <message>
        <source>Mark files in folder</source>
        <translation>选择文件夹（标记其中的文件）</translation>
    </message>
    <message>
        <source>There is no folder {folder}. Choose one, or leave the field empty.</source>
        <translation>文件夹 {folder} 不存在。请重新选择，或将此项留空。</translation>
    </message>
    <message numerus="yes">
        <source>%n keeper(s)</source>
        <translation>
            <numerusform>%n 个保留项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) in reference folders</source>
        <translation>
            <numerusform>参考文件夹中的 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) that hold their keeper and more</source>
        <translation>
            <numerusform>%n 个含有保留项全部内容并且更多的文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unticked %n file(s).</source>
        <translation>
            <numerusform>已取消勾选 %n 个文件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ticked %n file(s). Met the rule but never ticked: {left}.</source>
        <translation>
            <numerusform>已勾选 %n 个文件。符合规则但不会勾选的：{left}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ticked %n file(s).</source>
        <translation>
            <numerusform>已勾选 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Now {summary}.</source>
        <translation>当前{summary}。</translation>
    </message>
    <message>
        <source>Now nothing marked.</source>
        <translation>当前没有标记任何文件。</translation>
    </message>
    <message>
        <source>{result} {now}</source>
        <translation>{result}{now}</translation>
    </message>
</context>
<context>
    <name>OverflowBar</name>
    <message>
        <source>More: what does not fit here</source>
        <translation>更多：这里放不下的按钮</translation>
    </message>
    <message>
        <source>More</source>
        <translation>更多</translation>
    </message>
</context>
<context>
    <name>OverviewRuler</name>
    <message>
        <source>Where the differences are in the whole pair; click to go there</source>
        <translation>两个文档所有不同之处的位置；点击即可跳到那里</translation>
    </message>
</context>
<context>
    <name>PairsModel</name>
    <message>
        <source>Left</source>
        <translation>左侧</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>右侧</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>Containment</source>
        <translation>包含度</translation>
    </message>
    <message>
        <source>Left size</source>
        <translation>左侧大小</translation>
    </message>
    <message>
        <source>Right size</source>
        <translation>右侧大小</translation>
    </message>
    <message>
        <source>Listed together</source>
        <translation>同组</translation>
    </message>
    <message>
        <source>Longest passage</source>
        <translation>最长段落</translation>
    </message>
    <message>
        <source>Passages</source>
        <translation>段落数</translation>
    </message>
    <message>
        <source>One document of the pair (the first by path)</source>
        <translation>文档对中的一个文档（按路径排在前面的）</translation>
    </message>
    <message>
        <source>The other document</source>
        <translation>另一个文档</translation>
    </message>
    <message>
        <source>How much of the text the two share; hover over a value for the exact measures</source>
        <translation>两者有多少文本相同；将鼠标悬停在数值上可查看精确度量</translation>
    </message>
    <message>
        <source>Share of the smaller text found inside the other (an excerpt inside a longer document scores 100 %)</source>
        <translation>较短文本出现在另一文本中的比例（长文档中的摘录为 100 %）</translation>
    </message>
    <message>
        <source>Size of the left file</source>
        <translation>左侧文件的大小</translation>
    </message>
    <message>
        <source>Size of the right file</source>
        <translation>右侧文件的大小</translation>
    </message>
    <message>
        <source>The groups that list both documents; “—”: none does (each is grouped with other duplicates)</source>
        <translation>同时列出这两个文档的组；“—”：没有这样的组（它们各自与其他重复文档分在一组）</translation>
    </message>
    <message>
        <source>The longest passage both documents hold word for word, in words</source>
        <translation>两个文档逐字相同的最长段落，以词（中文为字）计</translation>
    </message>
    <message>
        <source>How many passages the two documents share</source>
        <translation>两个文档共有多少段相同的文字</translation>
    </message>
    <message>
        <source>Excerpt</source>
        <translation>摘录</translation>
    </message>
    <message>
        <source>Found in</source>
        <translation>所在文档</translation>
    </message>
    <message>
        <source>The document inside the other</source>
        <translation>包含在另一文档中的文档</translation>
    </message>
    <message>
        <source>The document that holds it</source>
        <translation>包含它的文档</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>ticked</source>
        <translation>已勾选</translation>
    </message>
    <message>
        <source>{name} — in {folder}</source>
        <translation>{name}（位于 {folder}）</translation>
    </message>
    <message numerus="yes">
        <source>%n word(s)</source>
        <translation>
            <numerusform>%n 个词（字）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PairsPage</name>
    <message>
        <source>Filter by path…</source>
        <translation>按路径筛选…</translation>
    </message>
    <message>
        <source>Show only pairs with a document whose path contains this text</source>
        <translation>只显示其中有文档路径包含此文本的文档对</translation>
    </message>
    <message>
        <source>Keep left</source>
        <translation>保留左侧</translation>
    </message>
    <message>
        <source>Keep right</source>
        <translation>保留右侧</translation>
    </message>
    <message>
        <source>Not a duplicate</source>
        <translation>不是重复</translation>
    </message>
    <message>
        <source>These two are not duplicates, now and after rescans; Edit ▸ Undo takes it back (Ctrl+D)</source>
        <translation>这两个文档不是重复文档，现在和重新扫描后都是如此；编辑 ▸ 撤销可收回（Ctrl+D）</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>文档对</translation>
    </message>
    <message numerus="yes">
        <source>%Ln excerpt(s)</source>
        <translation>
            <numerusform>%Ln 份摘录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %Ln excerpt(s)</source>
        <translation>
            <numerusform>{shown} / %Ln 份摘录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) that share passages</source>
        <translation>
            <numerusform>%Ln 对文档有共同段落</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %Ln pair(s) that share passages</source>
        <translation>
            <numerusform>{shown} / %Ln 对有共同段落的文档</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s)</source>
        <translation>
            <numerusform>%Ln 对</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %Ln pair(s)</source>
        <translation>
            <numerusform>{shown} / %Ln 对</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n very large group(s) only the pairs known: those that joined them, and each member with its keeper</source>
        <translation>
            <numerusform>在 %n 个非常大的组中只列出已知的文档对：连接它们的文档对，以及每个成员与其保留项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PassageView</name>
    <message>
        <source>Select a pair to see the passages its two documents share.</source>
        <translation>选择一对文档，查看两者共有的段落。</translation>
    </message>
    <message>
        <source>▲ Previous</source>
        <translation>▲ 上一处</translation>
    </message>
    <message>
        <source>Previous shared passage (Shift+F3)</source>
        <translation>上一段共同段落（Shift+F3）</translation>
    </message>
    <message>
        <source>▼ Next</source>
        <translation>▼ 下一处</translation>
    </message>
    <message>
        <source>Next shared passage (F3)</source>
        <translation>下一段共同段落（F3）</translation>
    </message>
    <message>
        <source>Left document</source>
        <translation>左侧文档</translation>
    </message>
    <message>
        <source>Right document</source>
        <translation>右侧文档</translation>
    </message>
    <message>
        <source>Reading the two documents…</source>
        <translation>正在读取两个文档…</translation>
    </message>
    <message>
        <source>A file changed since the scan: scan again to see where the passages are.</source>
        <translation>有文件在扫描后被修改：重新扫描后才能显示段落的位置。</translation>
    </message>
    <message numerus="yes">
        <source>%n shared passage(s): the longest {longest} words in a row, {words} words in all</source>
        <translation>
            <numerusform>%n 段共同段落：最长的连续 {longest} 个词（字），共 {words} 个词（字）</numerusform>
        </translation>
    </message>
    <message>
        <source>Passage {current} of {count}</source>
        <translation>第 {current} 段，共 {count} 段</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>As the system ({language})</source>
        <translation>跟随系统（{language}）</translation>
    </message>
    <message>
        <source>The language of menus, messages, the user guide and HTML reports</source>
        <translation>菜单、提示信息、使用指南和 HTML 报告所用的语言</translation>
    </message>
    <message>
        <source>A new language is used the next time neardup starts.</source>
        <translation>新的语言在下次启动 neardup 时生效。</translation>
    </message>
    <message>
        <source>As the system (light or dark)</source>
        <translation>跟随系统（浅色或深色）</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Light or dark colours; “As the system” changes with the desktop</source>
        <translation>浅色或深色；选择“跟随系统”时随桌面设置变化</translation>
    </message>
    <message>
        <source>Which file of each group is kept when you mark all but the keepers</source>
        <translation>“标记除保留项外的所有文件”时，每组保留哪个文件</translation>
    </message>
    <message>
        <source>Ignore spacing and line breaks (and running page headers)</source>
        <translation>忽略排版差异（空格、换行和页眉）</translation>
    </message>
    <message>
        <source>When two documents are compared side by side, text that only moved to another line or gained spaces is not shown as a difference</source>
        <translation>并排比较两份文档时，只是换了行或多了空格的文字不显示为差异</translation>
    </message>
    <message>
        <source>How documents are compared: by the phrases they share (recommended) or by a fingerprint of their words (faster on huge collections)</source>
        <translation>如何比较文档：按共同的片段（推荐），或按词语指纹（文档极多时更快）</translation>
    </message>
    <message>
        <source> %</source>
        <comment>a percentage&apos;s sign after its number</comment>
        <translation>%</translation>
    </message>
    <message>
        <source>Documents sharing at least this share of their phrases are grouped (Jaccard similarity × 100)</source>
        <translation>共同片段至少占这个比例的文档会被分为一组（Jaccard 相似度 × 100）</translation>
    </message>
    <message>
        <source>Fingerprints may differ in at most this many of their 64 bits (Hamming distance); fewer is stricter. Documents sharing less than a fifth of their phrases are never grouped by it, however close their fingerprints.</source>
        <translation>64 位指纹最多允许有这么多位不同（汉明距离）；越少越严格。共同片段不到五分之一的两份文档，无论指纹多接近，都不会因此被分到一组。</translation>
    </message>
    <message>
        <source>Leave out common text (headers, footers, notices many documents share)</source>
        <translation>不计常见文字（许多文档共有的页眉、页脚、声明）</translation>
    </message>
    <message>
        <source>Passages that open or close many of the scanned documents, whose other text is unrelated, do not count when documents are compared; documents of one family (versions of a form, licence variants) keep the text they share</source>
        <translation>比较文档时，不计许多已扫描文档开头或结尾都有、而其余内容互不相关的段落；同一类文档（同一表格的各个版本、同一许可证的各种变体）保留它们共有的文字</translation>
    </message>
    <message>
        <source>Language and appearance</source>
        <translation>语言和外观</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>界面语言：</translation>
    </message>
    <message>
        <source>Appearance:</source>
        <translation>外观：</translation>
    </message>
    <message>
        <source>Reviewing</source>
        <translation>查看结果</translation>
    </message>
    <message>
        <source>In each group, keep:</source>
        <translation>每组保留：</translation>
    </message>
    <message>
        <source>Finding duplicates</source>
        <translation>查找重复</translation>
    </message>
    <message>
        <source>Compare by:</source>
        <translation>比较方式：</translation>
    </message>
    <message>
        <source>How similar must documents be?</source>
        <translation>文档要多相似才算重复？</translation>
    </message>
    <message>
        <source>Fingerprint bits that may differ:</source>
        <translation>指纹允许不同的位数：</translation>
    </message>
</context>
<context>
    <name>Problem</name>
    <message>
        <source>Permission denied: neardup may not read this.</source>
        <translation>没有权限：neardup 无法读取此项。</translation>
    </message>
    <message>
        <source>It disappeared while the folders were being walked.</source>
        <translation>查找文件时它已不见了（可能被移走或删除）。</translation>
    </message>
    <message>
        <source>It could not be looked at.</source>
        <translation>无法访问此项。</translation>
    </message>
    <message>
        <source>neardup does not read {kind} files</source>
        <translation>neardup 不读取 {kind} 文件</translation>
    </message>
    <message>
        <source>This is not a PNG, JPEG, TIFF or BMP image, although its name says so.</source>
        <translation>这不是 PNG、JPEG、TIFF 或 BMP 图片，只是文件名如此。</translation>
    </message>
    <message>
        <source>An image: its text is read only with OCR (tick Read scans with OCR, or neardup scan --ocr).</source>
        <translation>这是一张图片：只有用 OCR 才能读出其中的文字（勾选“用 OCR 识别扫描件和图片”，或使用 neardup scan --ocr）。</translation>
    </message>
    <message>
        <source>a Word 97–2003 document (.doc)</source>
        <translation>Word 97–2003 文档（.doc）</translation>
    </message>
    <message>
        <source>a Word document (.docx)</source>
        <translation>Word 文档（.docx）</translation>
    </message>
    <message>
        <source>an OpenDocument text (.odt)</source>
        <translation>OpenDocument 文本（.odt）</translation>
    </message>
    <message>
        <source>an RTF document (.rtf)</source>
        <translation>RTF 文档（.rtf）</translation>
    </message>
    <message>
        <source>an Excel 97–2003 workbook (.xls)</source>
        <translation>Excel 97–2003 工作簿（.xls）</translation>
    </message>
    <message>
        <source>an Excel workbook (.xlsx)</source>
        <translation>Excel 工作簿（.xlsx）</translation>
    </message>
    <message>
        <source>an OpenDocument spreadsheet (.ods)</source>
        <translation>OpenDocument 电子表格（.ods）</translation>
    </message>
    <message>
        <source>a PowerPoint 97–2003 presentation (.ppt)</source>
        <translation>PowerPoint 97–2003 演示文稿（.ppt）</translation>
    </message>
    <message>
        <source>a PowerPoint presentation (.pptx)</source>
        <translation>PowerPoint 演示文稿（.pptx）</translation>
    </message>
    <message>
        <source>an OpenDocument presentation (.odp)</source>
        <translation>OpenDocument 演示文稿（.odp）</translation>
    </message>
    <message>
        <source>a PDF</source>
        <translation>PDF 文件</translation>
    </message>
    <message>
        <source>a web page (.html)</source>
        <translation>网页（.html）</translation>
    </message>
    <message>
        <source>an e-book (.epub)</source>
        <translation>电子书（.epub）</translation>
    </message>
    <message>
        <source>a Word 2003 XML document</source>
        <translation>Word 2003 XML 文档</translation>
    </message>
    <message>
        <source>an Excel 2003 XML workbook</source>
        <translation>Excel 2003 XML 工作簿</translation>
    </message>
    <message>
        <source>This file is {format}, whatever its name says, and was read as one.</source>
        <translation>这个文件实际上是{format}，与文件名所示的格式不同；已按它的实际格式读取。</translation>
    </message>
    <message>
        <source>This is not {format}, although its name says so.</source>
        <translation>这不是{format}，只是文件名这样显示。</translation>
    </message>
    <message>
        <source>This file is not a WPS Office document (neither a Word, Excel nor PowerPoint file inside, nor an Office Open XML one); it may be from another program of that name, such as Microsoft Works.</source>
        <translation>这不是 WPS Office 文档（里面既不是 Word、Excel 或 PowerPoint 文件，也不是 Office Open XML 文件）；它可能来自同样使用这个扩展名的其他程序，例如 Microsoft Works。</translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation>文件是空的。</translation>
    </message>
    <message>
        <source>The file holds only white space.</source>
        <translation>文件中只有空白字符。</translation>
    </message>
    <message>
        <source>This looks like a binary file, not text, although its name says text.</source>
        <translation>从文件名看是文本文件，但内容看起来是二进制数据，不是文字。</translation>
    </message>
    <message>
        <source>Read as {encoding}: 1 damaged byte (a zero byte, or a byte not valid in that encoding) could not be read and was replaced with �; the rest of the text is compared as usual.</source>
        <translation>已按 {encoding} 编码读取：有 1 个损坏的字节（零字节，或不符合该编码的字节）无法读取，已替换为 �；其余文字照常比较。</translation>
    </message>
    <message>
        <source>Read as {encoding}: {count} damaged bytes (zero bytes, or bytes not valid in that encoding) could not be read and were replaced with �; the rest of the text is compared as usual.</source>
        <translation>已按 {encoding} 编码读取：有 {count} 个损坏的字节（零字节，或不符合该编码的字节）无法读取，已替换为 �；其余文字照常比较。</translation>
    </message>
    <message>
        <source>Encrypted PDF; opening it needs the &apos;cryptography&apos; package.</source>
        <translation>加密的 PDF；需要安装“cryptography”软件包才能打开。</translation>
    </message>
    <message>
        <source>Password-protected PDF: remove the password (or export an unprotected copy) to compare it.</source>
        <translation>PDF 有密码保护：请去掉密码（或导出一份不加密的副本）后再比较。</translation>
    </message>
    <message>
        <source>Password-protected PDF: its pages cannot be read without the password.</source>
        <translation>PDF 有密码保护：没有密码无法读取其中的页面。</translation>
    </message>
    <message>
        <source>Encrypted PDF that could not be opened: remove the password (or export an unprotected copy) to compare it.</source>
        <translation>无法打开这个加密的 PDF：请去掉密码（或导出一份不加密的副本）后再比较。</translation>
    </message>
    <message>
        <source>Damaged PDF: its structure could not be read. Open it in its program and save it again (or print it to a new PDF) to compare it.</source>
        <translation>PDF 已损坏：无法读取其内部结构。请用相应的程序打开并重新保存（或打印成新的 PDF）后再比较。</translation>
    </message>
    <message>
        <source>This is not a PDF, although its name says so.</source>
        <translation>这不是 PDF 文件，只是文件名以 .pdf 结尾。</translation>
    </message>
    <message>
        <source>Pages {pages} could not be read.</source>
        <translation>第 {pages} 页无法读取。</translation>
    </message>
    <message>
        <source>No page of this PDF could be read. Pages {pages} could not be read.</source>
        <translation>这个 PDF 的所有页面都无法读取。无法读取的页面：第 {pages} 页。</translation>
    </message>
    <message>
        <source>This PDF has no text layer; it is probably a scan or images (OCR it to compare it).</source>
        <translation>这个 PDF 没有文字层，可能是扫描件或图片（需先用 OCR 识别文字才能比较）。</translation>
    </message>
    <message>
        <source>This PDF has no text layer; it is probably a scan or images (OCR it to compare it). Pages {pages} could not be read.</source>
        <translation>这个 PDF 没有文字层，可能是扫描件或图片（需先用 OCR 识别文字才能比较）。第 {pages} 页无法读取。</translation>
    </message>
    <message>
        <source>reading it took longer than {seconds} s, so it was stopped</source>
        <translation>读取超过 {seconds} 秒，已停止</translation>
    </message>
    <message>
        <source>reading it needs more than the {size} of memory a reader may use</source>
        <translation>读取它所需的内存超过了允许的 {size}</translation>
    </message>
    <message>
        <source>reading it needs more than the memory a reader may use</source>
        <translation>读取它所需的内存超过了允许的上限</translation>
    </message>
    <message>
        <source>the reader failed on it</source>
        <translation>读取时出错</translation>
    </message>
    <message>
        <source>the reader crashed on it</source>
        <translation>读取时程序崩溃</translation>
    </message>
    <message>
        <source>The file changed while it was being scanned; scan again to include it.</source>
        <translation>扫描期间文件发生了变化；请重新扫描以纳入它。</translation>
    </message>
    <message>
        <source>Too large to compare: {reason}. To allow a reader more: neardup scan --max-memory MIB --retry-failed.</source>
        <translation>文件太大，无法比较：{reason}。如要允许使用更多内存：neardup scan --max-memory MIB --retry-failed。</translation>
    </message>
    <message>
        <source>Not compared: {reason}. It is read again by a scan with a longer time limit: Try Again in the app&apos;s Problems tab, or neardup scan --timeout.</source>
        <translation>未比较：{reason}。放宽时间限制后重新扫描即可再次读取：在应用的“问题”标签页中点“重试”，或使用 neardup scan --timeout。</translation>
    </message>
    <message>
        <source>Not compared: {reason}. To try it again: Try Again in the app&apos;s Problems tab, or neardup scan --retry-failed.</source>
        <translation>未比较：{reason}。如要再试一次：在应用的“问题”标签页中点“重试”，或使用 neardup scan --retry-failed。</translation>
    </message>
    <message>
        <source>The file was replaced by a folder, a link, a pipe or a device during the scan; scan again.</source>
        <translation>扫描期间文件被替换成了文件夹、链接、管道或设备；请重新扫描。</translation>
    </message>
    <message>
        <source>The file could not be read.</source>
        <translation>无法读取这个文件。</translation>
    </message>
    <message>
        <source>the page could not be drawn: {reason}</source>
        <translation>无法绘制该页：{reason}</translation>
    </message>
    <message>
        <source>Damaged or unreadable document: {reason}</source>
        <translation>文档已损坏或无法读取：{reason}</translation>
    </message>
    <message>
        <source>Encrypted PDF that could not be opened: {error}</source>
        <translation>无法打开这个加密的 PDF：{error}</translation>
    </message>
    <message>
        <source>Damaged or unreadable PDF: {reason}</source>
        <translation>PDF 已损坏或无法读取：{reason}</translation>
    </message>
    <message>
        <source>Damaged PDF: its structure loops on itself.</source>
        <translation>PDF 已损坏：文件结构出现循环引用。</translation>
    </message>
    <message>
        <source>The file could not be read: {reason}</source>
        <translation>无法读取文件：{reason}</translation>
    </message>
    <message>
        <source>the reader failed: {error}</source>
        <translation>读取出错：{error}</translation>
    </message>
    <message>
        <source>the reader crashed on it (exit code {code})</source>
        <translation>读取时程序崩溃（退出码 {code}）</translation>
    </message>
    <message>
        <source>the reader crashed on it ({signal})</source>
        <translation>读取时程序崩溃（{signal}）</translation>
    </message>
    <message>
        <source>Not compared: its fingerprint could not be read back ({reason}). To try it again: Try Again in the app&apos;s Problems tab, or neardup scan --retry-failed.</source>
        <translation>未比较：无法读回它的指纹（{reason}）。如要再试一次：在应用的“问题”标签页中点“重试”，或使用 neardup scan --retry-failed。</translation>
    </message>
    <message>
        <source>Damaged file: its structure loops on itself. Open it in its program and save it again to compare it.</source>
        <translation>文件已损坏：其内部结构出现循环引用。请用相应的程序打开并重新保存后再比较。</translation>
    </message>
    <message>
        <source>Encrypted in a way neardup cannot open. Remove the password (or save an unprotected copy) to compare it.</source>
        <translation>文件的加密方式 neardup 无法打开。请去掉密码（或另存一份不加密的副本）后再比较。</translation>
    </message>
    <message>
        <source>Damaged file: its end is missing (a download or copy cut short?). Download or copy it again, or open it in its program and save it again.</source>
        <translation>文件已损坏：结尾部分缺失（可能是下载或复制没有完成）。请重新下载或复制，或用相应的程序打开并重新保存。</translation>
    </message>
    <message>
        <source>Damaged file: some of its contents are garbled (a failing disk, or a copy gone wrong?). Copy it again from where it came from, or open it in its program and save it again.</source>
        <translation>文件已损坏：部分内容已错乱（可能是磁盘故障或复制出错）。请从原处重新复制，或用相应的程序打开并重新保存。</translation>
    </message>
    <message>
        <source>Damaged document: the markup that holds its text is broken. Open it in its program and save it again to compare it.</source>
        <translation>文档已损坏：承载文字的标记结构已损坏。请用相应的程序打开并重新保存后再比较。</translation>
    </message>
    <message>
        <source>Packed in a way neardup cannot unpack. Open it in its program and save it again to compare it.</source>
        <translation>文件的压缩方式 neardup 无法解压。请用相应的程序打开并重新保存后再比较。</translation>
    </message>
    <message>
        <source>Permission denied: neardup may not read this file.</source>
        <translation>没有权限：neardup 无法读取此文件。</translation>
    </message>
    <message>
        <source>The disk gave an error while reading it (a failing disk, or a drive or network share that was disconnected?). Check the disk, or copy the file elsewhere, and scan again.</source>
        <translation>读取时磁盘报错（可能是磁盘故障，或驱动器、网络共享已断开）。请检查磁盘，或把文件复制到别处，然后重新扫描。</translation>
    </message>
    <message>
        <source>The network share holding it stopped answering. Reconnect it and scan again.</source>
        <translation>存放它的网络共享没有响应。请重新连接后再扫描。</translation>
    </message>
    <message>
        <source>Its path is too long to open. Move it to a shorter path (or shorten its name) and scan again.</source>
        <translation>它的路径太长，无法打开。请把它移到路径较短的位置（或缩短文件名）后重新扫描。</translation>
    </message>
    <message>
        <source>The file was deleted during the scan.</source>
        <translation>扫描期间文件已被删除。</translation>
    </message>
    <message>
        <source>This is a folder, not a file.</source>
        <translation>这是文件夹，不是文件。</translation>
    </message>
    <message>
        <source>A symbolic link that points to itself.</source>
        <translation>指向自身的符号链接。</translation>
    </message>
    <message>
        <source>Larger than the {limit} MiB limit; not compared.</source>
        <translation>超过 {limit} MiB 的大小上限，未比较。</translation>
    </message>
    <message>
        <source>Damaged document: its contents could not be read. Open it in its program and save it again to compare it.</source>
        <translation>文档已损坏：无法读取其内容。请用相应的程序打开并重新保存后再比较。</translation>
    </message>
    <message>
        <source>Damaged document: it is not a complete package of its format (a download or copy cut short?).</source>
        <translation>文档已损坏：它不是该格式的完整文件包（可能是下载或复制没有完成）。</translation>
    </message>
    <message>
        <source>Damaged document: its part {part} is missing.</source>
        <translation>文档已损坏：缺少其组成部分 {part}。</translation>
    </message>
    <message>
        <source>Not read: this document unpacks to more than {limit} MB of text parts (a zip bomb?).</source>
        <translation>未读取：这份文档解压后的文字部分超过 {limit} MB（可能是压缩炸弹）。</translation>
    </message>
    <message>
        <source>Not read: the document&apos;s part {part} declares a document type (XML entities), which such documents never need; it could expand without limit.</source>
        <translation>未读取：文档的组成部分 {part} 声明了文档类型（XML 实体）；这类文档从不需要它，它可能无限膨胀。</translation>
    </message>
    <message>
        <source>Password-protected document: remove the password (or save an unprotected copy) to compare it.</source>
        <translation>受密码保护的文档：请去掉密码（或另存一份不加密的副本）后再比较。</translation>
    </message>
    <message>
        <source>Not read: this document would give more than {limit} million characters of text (a crafted file?).</source>
        <translation>未读取：这份文档会产生超过 {limit} 百万个字符的文字（可能是特意构造的文件）。</translation>
    </message>
    <message>
        <source>The document holds no text.</source>
        <translation>文档中没有文字。</translation>
    </message>
    <message>
        <source>This is a binary Office file that holds no Word, Excel or PowerPoint document (another program&apos;s file?).</source>
        <translation>这是一个二进制 Office 文件，但里面没有 Word、Excel 或 PowerPoint 文档（可能是其他程序的文件）。</translation>
    </message>
    <message>
        <source>Damaged RTF document: its control words could not be read. Open it in its program and save it again to compare it.</source>
        <translation>RTF 文档已损坏：无法读取其中的控制字。请用相应的程序打开并重新保存后再比较。</translation>
    </message>
    <message>
        <source>This is not an RTF document, although its name says so.</source>
        <translation>这不是 RTF 文档，只是文件名以 .rtf 结尾。</translation>
    </message>
    <message>
        <source>This e-book is protected by DRM (its chapters are encrypted); it cannot be read.</source>
        <translation>这本电子书受 DRM 保护（章节已加密），无法读取。</translation>
    </message>
    <message>
        <source>Damaged e-book: its package file lists no chapters to read.</source>
        <translation>电子书已损坏：其包文件中没有列出可读的章节。</translation>
    </message>
    <message>
        <source>Damaged e-book: the chapters its package file lists are missing.</source>
        <translation>电子书已损坏：其包文件列出的章节都不存在。</translation>
    </message>
    <message>
        <source>Reading scans needs Tesseract OCR: install the packages {packages} (or run bash resources/setup.sh --ocr).</source>
        <translation>识别扫描件需要 Tesseract OCR：请安装软件包 {packages}（或运行 bash resources/setup.sh --ocr）。</translation>
    </message>
    <message>
        <source>Tesseract OCR has no language data for {languages}: install the packages {packages}.</source>
        <translation>Tesseract OCR 缺少 {languages} 的语言数据：请安装软件包 {packages}。</translation>
    </message>
    <message>
        <source>Text from OCR (Tesseract, {languages}): a scan&apos;s text may hold misread characters.</source>
        <translation>文字由 OCR 识别（Tesseract，{languages}）：扫描件的文字可能有识别错误。</translation>
    </message>
    <message>
        <source>Text from OCR (Tesseract, {languages}): a scan&apos;s text may hold misread characters. Pages {pages} could not be read: {reason}</source>
        <translation>文字由 OCR 识别（Tesseract，{languages}）：扫描件的文字可能有识别错误。第 {pages} 页无法识别：{reason}</translation>
    </message>
    <message>
        <source>OCR (Tesseract, {languages}) found no text in it.</source>
        <translation>OCR（Tesseract，{languages}）没有在其中找到文字。</translation>
    </message>
    <message>
        <source>OCR (Tesseract, {languages}) could not read it: {reason}</source>
        <translation>OCR（Tesseract，{languages}）无法识别它：{reason}</translation>
    </message>
    <message>
        <source>OCR (Tesseract, {languages}) could not read it: {reason}. It is read again by a scan with a longer time limit: Try Again in the app&apos;s Problems tab, or neardup scan --timeout.</source>
        <translation>OCR（Tesseract，{languages}）无法识别它：{reason}。用更长的时限扫描时会重新识别：在“问题”标签页点“重试”，或使用 neardup scan --timeout。</translation>
    </message>
    <message>
        <source>Tesseract could not read the image (damaged, or not an image)</source>
        <translation>Tesseract 无法读取这张图片（已损坏，或不是图片）</translation>
    </message>
    <message>
        <source>the page could not be drawn</source>
        <translation>无法绘制该页</translation>
    </message>
    <message>
        <source>Tesseract could not be started</source>
        <translation>无法启动 Tesseract</translation>
    </message>
    <message>
        <source>Tesseract took longer than {seconds} s on it</source>
        <translation>Tesseract 处理它超过了 {seconds} 秒</translation>
    </message>
    <message>
        <source>Details: {details}</source>
        <translation>详细信息：{details}</translation>
    </message>
    <message>
        <source>Not compared: its fingerprint could not be read back. To try it again: Try Again in the app&apos;s Problems tab, or neardup scan --retry-failed.</source>
        <translation>未比较：无法读回它的指纹。如要再试一次：在应用的“问题”标签页中点“重试”，或使用 neardup scan --retry-failed。</translation>
    </message>
    <message>
        <source>This is not an e-mail message (it has no headers), although its name says so.</source>
        <translation>这不是电子邮件（没有邮件头），虽然它的文件名是邮件。</translation>
    </message>
    <message>
        <source>An e-mail with no text: no subject, and no text or HTML part.</source>
        <translation>这封邮件没有文字：没有主题，也没有文本或 HTML 部分。</translation>
    </message>
    <message>
        <source>Attachments not compared: {names}.</source>
        <translation>附件未比较：{names}。</translation>
    </message>
    <message>
        <source>Damaged document: it is not a complete Office file (a download or copy cut short?).</source>
        <translation>文档已损坏：它不是完整的 Office 文件（可能是下载或复制没有完成）。</translation>
    </message>
    <message>
        <source>Damaged document: the sectors of its part {part} run in a circle or point outside the file.</source>
        <translation>文档已损坏：其组成部分 {part} 的数据块首尾循环，或指向文件之外。</translation>
    </message>
    <message>
        <source>Damaged document: its part {part} claims {size} MB, more than the whole file holds.</source>
        <translation>文档已损坏：其组成部分 {part} 声称有 {size} MB，超过了整个文件的大小。</translation>
    </message>
    <message>
        <source>This Office file holds no Excel workbook (its Workbook part is missing); it cannot be compared.</source>
        <translation>这个 Office 文件里没有 Excel 工作簿（缺少其中的 Workbook 部分），无法比较。</translation>
    </message>
    <message>
        <source>This Office file holds no PowerPoint presentation; it cannot be compared.</source>
        <translation>这个 Office 文件中没有 PowerPoint 演示文稿，无法比较。</translation>
    </message>
    <message>
        <source>A PowerPoint presentation older than PowerPoint 97 (PowerPoint 95 or 4), which neardup does not read; open it in PowerPoint, WPS or LibreOffice and save it as .pptx to compare it.</source>
        <translation>这是比 PowerPoint 97 更旧的演示文稿（PowerPoint 95 或 4），neardup 无法读取；请用 PowerPoint、WPS 或 LibreOffice 打开，另存为 .pptx 后再比较。</translation>
    </message>
    <message>
        <source>This Office file holds no Word document (its WordDocument part is not one); it cannot be compared.</source>
        <translation>这个 Office 文件里没有 Word 文档（其中的 WordDocument 部分不是 Word 文档），无法比较。</translation>
    </message>
    <message>
        <source>A Word document older than Word 97 (Word 6 or 95), which neardup does not read; open it in Word, WPS or LibreOffice and save it as .docx to compare it.</source>
        <translation>这是比 Word 97 更旧的 Word 文档（Word 6 或 95），neardup 无法读取；请用 Word、WPS 或 LibreOffice 打开，另存为 .docx 后再比较。</translation>
    </message>
    <message>
        <source>Damaged Word document: its table of text pieces points outside the file. Open it in its program and save it again to compare it.</source>
        <translation>Word 文档已损坏：其文字片段表指向文件之外。请用相应的程序打开并重新保存后再比较。</translation>
    </message>
</context>
<context>
    <name>ProblemsModel</name>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
</context>
<context>
    <name>ProblemsPage</name>
    <message>
        <source>Files that could not be compared, and what to do about each</source>
        <translation>无法比较的文件，以及各自的处理办法</translation>
    </message>
    <message>
        <source>Try Again</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Read again the files whose reading crashed, ran out of memory or took too long (a scan of the folders that tries those files once more)</source>
        <translation>重新读取那些读取时崩溃、内存不足或超时的文件（会扫描文件夹，并再试一次这些文件）</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Files that could not be compared, and what to do about each.</source>
        <translation>无法比较的文件，以及各自的处理办法。</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
    <message>
        <source>Choose</source>
        <translation>选择</translation>
    </message>
</context>
<context>
    <name>Regrouping</name>
    <message>
        <source>Grouping failed</source>
        <translation>分组失败</translation>
    </message>
    <message>
        <source>Preparing groups for this threshold… {percent} %</source>
        <translation>正在按这个相似度要求准备重复组…{percent}%</translation>
    </message>
</context>
<context>
    <name>ReportExport</name>
    <message>
        <source>HTML report (*.html);;CSV spreadsheet (*.csv);;JSON data (*.json)</source>
        <translation>HTML 报告 (*.html);;CSV 表格 (*.csv);;JSON 数据 (*.json)</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Replace the file?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <source>{path}

already exists. Replace it with the report?</source>
        <translation>{path}

已存在。要用报告替换它吗？</translation>
    </message>
    <message>
        <source>The report was not saved</source>
        <translation>报告未保存</translation>
    </message>
    <message>
        <source>Report saved: {path}</source>
        <translation>报告已保存：{path}</translation>
    </message>
    <message numerus="yes">
        <source>Report of the %n group(s) the filter shows saved: {path}</source>
        <translation>
            <numerusform>已保存筛选显示的 %n 个组的报告：{path}</numerusform>
        </translation>
    </message>
    <message>
        <source>Writing the report…</source>
        <translation>正在写入报告…</translation>
    </message>
</context>
<context>
    <name>RescanNote</name>
    <message>
        <source>Scan Again</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>Settings that apply at the next scan</source>
        <translation>下次扫描时生效的设置</translation>
    </message>
</context>
<context>
    <name>Review</name>
    <message>
        <source>it is no longer there</source>
        <translation>它已不在原处</translation>
    </message>
    <message>
        <source>it cannot be checked ({reason})</source>
        <translation>无法检查它（{reason}）</translation>
    </message>
    <message>
        <source>it is no longer a regular file (now a folder, a link or a device)</source>
        <translation>它已不再是普通文件（现在是文件夹、链接或设备）</translation>
    </message>
    <message>
        <source>it was changed after the scan</source>
        <translation>扫描之后它被修改过</translation>
    </message>
    <message>
        <source>the trash of that drive ({folder}) may not be written to</source>
        <translation>该磁盘的回收站（{folder}）无法写入</translation>
    </message>
    <message>
        <source>Choose a folder to move the files into.</source>
        <translation>请选择要把文件移入的文件夹。</translation>
    </message>
    <message>
        <source>{folder} is inside a scanned folder (or would put the files back into one); choose a folder outside the scanned folders.</source>
        <translation>{folder} 位于扫描的文件夹之内（或会把文件放回其中）；请选择扫描范围之外的文件夹。</translation>
    </message>
    <message>
        <source>the folder it would go into, {folder}, leads into a scanned folder through a link</source>
        <translation>它要移入的文件夹 {folder} 通过链接指向了一个被扫描的文件夹</translation>
    </message>
    <message>
        <source>a file of that name is already there</source>
        <translation>那里已有同名文件</translation>
    </message>
    <message>
        <source>the drive is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <source>the file is too large for that drive</source>
        <translation>文件对该磁盘来说太大</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <source>the system does not allow it</source>
        <translation>系统不允许</translation>
    </message>
    <message>
        <source>the drive is read-only</source>
        <translation>磁盘是只读的</translation>
    </message>
    <message>
        <source>the name is too long for that drive</source>
        <translation>文件名对该磁盘来说太长</translation>
    </message>
    <message>
        <source>the drive reported an error</source>
        <translation>磁盘报告了错误</translation>
    </message>
    <message>
        <source>the folder {folder} could not be made ({cause})</source>
        <translation>无法创建文件夹 {folder}（{cause}）</translation>
    </message>
    <message>
        <source>it could not be moved ({cause})</source>
        <translation>无法移动（{cause}）</translation>
    </message>
    <message>
        <source>it could not be removed from its folder ({cause}), and its copy at {path} could not be deleted ({other}): the file is now in both places</source>
        <translation>无法从原文件夹移除（{cause}），它在 {path} 的副本也无法删除（{other}）：现在两处都有这个文件</translation>
    </message>
    <message>
        <source>it could not be removed from its folder ({cause}), so it stays there; its copy was deleted again</source>
        <translation>无法从原文件夹移除（{cause}），所以它留在原处；它的副本已重新删除</translation>
    </message>
    <message>
        <source>it could not be read ({cause})</source>
        <translation>无法读取（{cause}）</translation>
    </message>
    <message>
        <source>it could not be copied there ({cause}); nothing was left there</source>
        <translation>无法复制过去（{cause}）；那里没有留下任何东西</translation>
    </message>
    <message>
        <source>it changed while it was being copied</source>
        <translation>复制过程中文件发生了变化</translation>
    </message>
    <message>
        <source>a file is already at {path}</source>
        <translation>{path} 处已有文件</translation>
    </message>
</context>
<context>
    <name>Scan</name>
    <message>
        <source>%Ln file(s) in {seconds} s: {read} read, {reused} reused, {unchanged} unchanged, {gone} gone, {problems} with problems</source>
        <translation>{seconds} 秒处理了 %Ln 个文件：读取 {read} 个，复用 {reused} 个，未变 {unchanged} 个，已不存在 {gone} 个，有问题 {problems} 个</translation>
    </message>
    <message>
        <source>{summary}; %Ln file(s) the same bytes as one read, read with it</source>
        <translation>{summary}；另有 %Ln 个文件与已读取的文件字节相同，随之一并读取</translation>
    </message>
    <message>
        <source>{summary}; every file was read again: this version of neardup compares documents differently</source>
        <translation>{summary}；所有文件都重新读取了一遍：这个版本的 neardup 比较文档的方式不同</translation>
    </message>
    <message>
        <source>{summary}; {folder} no longer exists: its documents left the results</source>
        <translation>{summary}；{folder} 已不存在：其中的文档已从结果中移除</translation>
    </message>
</context>
<context>
    <name>ScanStatus</name>
    <message>
        <source>Finding files</source>
        <translation>查找文件</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>Fingerprinting</source>
        <translation>计算指纹</translation>
    </message>
    <message>
        <source>Reading scans (OCR)</source>
        <translation>识别扫描件（OCR）</translation>
    </message>
    <message>
        <source>Saving</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Indexing</source>
        <translation>建立索引</translation>
    </message>
    <message>
        <source>Finding boilerplate</source>
        <translation>查找常见文字</translation>
    </message>
    <message>
        <source>Grouping</source>
        <translation>分组</translation>
    </message>
    <message>
        <source>Writing report</source>
        <translation>写入报告</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在准备…</translation>
    </message>
    <message>
        <source>Cancelling… keeping what was read</source>
        <translation>正在取消…已读取的内容会保留</translation>
    </message>
    <message>
        <source>{phase}…</source>
        <translation>{phase}…</translation>
    </message>
    <message>
        <source>{rate} pages/s</source>
        <translation>每秒 {rate} 页</translation>
    </message>
    <message>
        <source>{rate} files/s</source>
        <translation>{rate} 个文件/秒</translation>
    </message>
    <message>
        <source>about {time} left</source>
        <translation>剩余约 {time}</translation>
    </message>
</context>
<context>
    <name>ShortcutList</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>Similarity</name>
    <message>
        <source>{value} %</source>
        <translation>{value}%</translation>
    </message>
    <message>
        <source>{low}–{high} %</source>
        <translation>{low}–{high}%</translation>
    </message>
    <message>
        <source>same text</source>
        <translation>内容相同</translation>
    </message>
    <message>
        <source>{percent} · inside the keeper</source>
        <translation>{percent} · 包含在保留项中</translation>
    </message>
    <message>
        <source>{percent} · holds the keeper</source>
        <translation>{percent} · 包含保留项</translation>
    </message>
    <message>
        <source>{share} of the phrases are shared (Jaccard {jaccard}; estimated {estimate})
{inside} of this text is inside the keeper; {keeper_inside} of the keeper is inside this
{bits} of 64 fingerprint bits differ (SimHash Hamming distance)</source>
        <translation>{share} 的片段相同（Jaccard {jaccard}；估计值 {estimate}）
本文有 {inside} 包含在保留项中；保留项有 {keeper_inside} 包含在本文中
64 位指纹中有 {bits} 位不同（SimHash 汉明距离）</translation>
    </message>
</context>
<context>
    <name>Spark</name>
    <message>
        <source>{path}: made with other reading settings ({what}); every file is read again</source>
        <translation>{path}：是用不同的读取设置（{what}）得出的；所有文件都重新读取</translation>
    </message>
    <message>
        <source>{path}: only a folder&apos;s files are reused; a table&apos;s rows and a URI&apos;s files are read again</source>
        <translation>{path}：只有文件夹中的文件可以沿用；表格的行和 URI 中的文件会重新读取</translation>
    </message>
    <message>
        <source>{path}: this result keeps no fingerprints (made by an older neardup); every file is read again</source>
        <translation>{path}：此结果没有保存指纹（由较旧版本的 neardup 生成）；所有文件都重新读取</translation>
    </message>
    <message>
        <source>the fingerprints of another version</source>
        <translation>另一版本的指纹</translation>
    </message>
    <message>
        <source>OCR</source>
        <translation>文字识别（OCR）</translation>
    </message>
    <message>
        <source>the size limit</source>
        <translation>文件大小上限</translation>
    </message>
</context>
<context>
    <name>SparkImport</name>
    <message>
        <source>Choose the folder the Spark job wrote its result to (its --out).</source>
        <translation>请选择 Spark 任务写入结果的文件夹（即它的 --out）。</translation>
    </message>
    <message>
        <source>{path} is not a folder.</source>
        <translation>{path} 不是文件夹。</translation>
    </message>
    <message>
        <source>Say which folder the job read the files from, as the cluster named it.</source>
        <translation>请填写任务读取文件的文件夹，按集群上的写法。</translation>
    </message>
    <message>
        <source>Choose the folder where these files are on this computer.</source>
        <translation>请选择这些文件在本机上所在的文件夹。</translation>
    </message>
    <message>
        <source>Choose a file for the new database.</source>
        <translation>请为新数据库选择一个文件。</translation>
    </message>
    <message>
        <source>{path} exists: choose a new file (a result is loaded into a new database).</source>
        <translation>{path} 已存在：请选择一个新文件（结果只能载入新的数据库）。</translation>
    </message>
</context>
<context>
    <name>SparkImportDialog</name>
    <message>
        <source>Import Spark Result</source>
        <translation>导入 Spark 结果</translation>
    </message>
    <message>
        <source>Load the result of a neardup job on a Spark cluster (neardup spark scan --out FOLDER), to review its groups here. Its files must be reachable from this computer.</source>
        <translation>载入 neardup 在 Spark 集群上运行的结果（neardup spark scan --out 文件夹），在这里审阅它的分组。本机必须能访问其中的文件。</translation>
    </message>
    <message>
        <source>The folder the job read, as the cluster named it</source>
        <translation>任务读取的文件夹，按集群上的写法</translation>
    </message>
    <message>
        <source>The same folder as this computer reaches it</source>
        <translation>同一个文件夹在本机上的位置</translation>
    </message>
    <message>
        <source>Spark result:</source>
        <translation>Spark 结果：</translation>
    </message>
    <message>
        <source>Files as the job saw them:</source>
        <translation>任务看到的文件位置：</translation>
    </message>
    <message>
        <source>Are on this computer in:</source>
        <translation>在本机上的位置：</translation>
    </message>
    <message>
        <source>New database:</source>
        <translation>新数据库：</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message numerus="yes">
        <source>Made from {source}: %n document(s).</source>
        <translation>
            <numerusform>来自 {source}：%n 个文档。</numerusform>
        </translation>
    </message>
    <message>
        <source>Spark result</source>
        <translation>Spark 结果</translation>
    </message>
    <message>
        <source>Where the files are on this computer</source>
        <translation>文件在本机上的位置</translation>
    </message>
    <message>
        <source>New database</source>
        <translation>新数据库</translation>
    </message>
    <message>
        <source>neardup database (*.db)</source>
        <translation>neardup 数据库 (*.db)</translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <source>read</source>
        <translation>已读取</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空文件</translation>
    </message>
    <message>
        <source>encrypted</source>
        <translation>已加密</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>too large</source>
        <translation>文件过大</translation>
    </message>
    <message>
        <source>unsupported</source>
        <translation>不支持</translation>
    </message>
    <message>
        <source>error</source>
        <translation>出错</translation>
    </message>
</context>
<context>
    <name>SystemCheck</name>
    <message>
        <source>drops a reference to None on every QPainter.save/restore/setPen/setFont, so the app aborts after some minutes of use</source>
        <translation>每次调用 QPainter.save/restore/setPen/setFont 都会少计一次 None 的引用，应用使用几分钟后就会崩溃</translation>
    </message>
    <message>
        <source>the packages that provide {libraries}</source>
        <translation>提供 {libraries} 的软件包</translation>
    </message>
    <message>
        <source>{command} and the packages that provide {libraries}</source>
        <translation>{command}，以及提供 {libraries} 的软件包</translation>
    </message>
    <message>
        <source>Qt cannot open a window: its {platform} platform plugin needs {libraries}. Install them with: {hint}</source>
        <translation>Qt 无法打开窗口：它的 {platform} 平台插件需要 {libraries}。请安装：{hint}</translation>
    </message>
    <message>
        <source>neardup-gui needs a graphical desktop, and there is none here ({variable} is not set). On a server, use the command line, neardup, or run the app under Xvfb.</source>
        <translation>neardup-gui 需要图形桌面，但这里没有（未设置 {variable}）。在服务器上请使用命令行工具 neardup，或在 Xvfb 下运行本应用。</translation>
    </message>
    <message>
        <source>neardup-gui needs PySide6, which is not installed: run bash resources/setup.sh (see README.md).</source>
        <translation>neardup-gui 需要 PySide6，但尚未安装：请运行 bash resources/setup.sh（见 README.md）。</translation>
    </message>
    <message>
        <source>PySide6 {version} {problem} on Python {python}; run bash resources/setup.sh again to install another release (or: .venv/bin/pip install &apos;PySide6-Essentials!={version}&apos;).</source>
        <translation>PySide6 {version} 在 Python {python} 上{problem}；请重新运行 bash resources/setup.sh 安装其他版本（或运行：.venv/bin/pip install &apos;PySide6-Essentials!={version}&apos;）。</translation>
    </message>
    <message>
        <source>Qt cannot load: {libraries} missing. Install them with: {hint}</source>
        <translation>Qt 无法加载：缺少 {libraries}。请安装：{hint}</translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <source>The file is no longer there (moved or deleted since the scan).</source>
        <translation>文件已不在原处（扫描后被移动或删除）。</translation>
    </message>
    <message>
        <source>The file cannot be read now: {reason}.</source>
        <translation>现在无法读取文件：{reason}。</translation>
    </message>
    <message>
        <source>The file changed since the scan; rescan to compare it again.</source>
        <translation>扫描后文件有改动；请重新扫描后再比较。</translation>
    </message>
</context>
<context>
    <name>ThresholdsPanel</name>
    <message>
        <source>Shared phrases (MinHash)</source>
        <translation>共同片段（MinHash）</translation>
    </message>
    <message>
        <source>Word fingerprint (SimHash)</source>
        <translation>词语指纹（SimHash）</translation>
    </message>
    <message>
        <source>Either of the two</source>
        <translation>两者任一</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>重复文档</translation>
    </message>
    <message>
        <source>Excerpts</source>
        <translation>摘录</translation>
    </message>
    <message>
        <source>Shared passages</source>
        <translation>共同段落</translation>
    </message>
    <message>
        <source>Duplicates: documents that are the same or nearly the same, in groups. Excerpts: a document whose text is inside a longer one (a chapter copied out of a report). Shared passages: two documents that hold the same passage word for word (a quotation, a copied page). Excerpts and passages are listed in the Pairs tab.</source>
        <translation>重复文档：内容相同或几乎相同的文档，分组列出。摘录：整篇文字包含在另一份更长文档中的文档（例如从报告中抄出的一章）。共同段落：两个文档逐字含有同一段文字（例如一段引文、抄来的一页）。摘录和共同段落列在“文档对”标签页中。</translation>
    </message>
    <message>
        <source>Look for</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Shared phrases: the share of three-word (for Chinese, three-character) phrases two documents have in common, checked exactly; recommended. Word fingerprint: compares 64-bit fingerprints of the words (for Chinese, of three-character runs), quick on very large collections; documents sharing less than a fifth of their phrases are never grouped by it. Either: a pair found by one of the two is grouped.</source>
        <translation>共同片段：两份文档共有的三词片段（中文为三个字）所占的比例，并经过精确核对；推荐使用。词语指纹：比较文档词语（中文为每三个相连的字）的 64 位指纹，在特别大的文档集上更快；共同片段不到五分之一的文档不会因此被分组。两者任一：任一方法找到的文档对都会被分组。</translation>
    </message>
    <message>
        <source>Compare by</source>
        <translation>比较方式</translation>
    </message>
    <message>
        <source>How similar must documents be?</source>
        <translation>文档要多相似才算重复？</translation>
    </message>
    <message>
        <source> %</source>
        <comment>a percentage&apos;s sign after its number</comment>
        <translation>%</translation>
    </message>
    <message>
        <source>Documents are grouped when at least this share of their phrases is the same: 100 % only for the same text, 80 % for a copy with some sentences changed, 50 % for a loose relative. For experts: Jaccard similarity of the documents&apos; three-word (or three-character) shingles.</source>
        <translation>相同片段至少占这个比例的文档会被分为一组：100% 只包括内容完全相同的文档，80% 包括改了几句话的副本，50% 包括大致相关的文档。供专业人员参考：文档三词（或三字）片段集合的 Jaccard 相似度。</translation>
    </message>
    <message>
        <source>Similarity in percent</source>
        <translation>相似度百分比</translation>
    </message>
    <message>
        <source>How much may fingerprints differ?</source>
        <translation>指纹最多可以相差多少？</translation>
    </message>
    <message>
        <source>Documents are grouped when their 64-bit word fingerprints differ in at most this many bits: 0 for the same words, 8 (the default) for a copy with some sentences changed; fewer is stricter. For experts: SimHash Hamming distance.</source>
        <translation>64 位词语指纹最多相差这么多位的文档会被分为一组：0 表示词语完全相同，8（默认值）包括改了几句话的副本；越少越严格。供专业人员参考：SimHash 汉明距离。</translation>
    </message>
    <message>
        <source>Bits that may differ</source>
        <translation>允许不同的位数</translation>
    </message>
    <message>
        <source>How much of the smaller document must be inside?</source>
        <translation>较短的文档至少有多少在另一份里？</translation>
    </message>
    <message>
        <source>A document is listed as an excerpt of another when at least this share of its phrases is in the other, however long the other is: 100 % for a passage copied whole, 80 % for one with some words changed. For experts: containment of the smaller document&apos;s shingles in the larger&apos;s.</source>
        <translation>一个文档至少有这个比例的片段出现在另一个文档中（不论另一个文档有多长）时，列为它的摘录：100% 表示整段照抄，80% 表示改了一些词。供专业人员参考：较短文档的片段集合在较长文档中的包含度。</translation>
    </message>
    <message>
        <source>Share inside in percent</source>
        <translation>包含的比例（百分比）</translation>
    </message>
    <message>
        <source>How long must a shared passage be?</source>
        <translation>共同段落至少要多长？</translation>
    </message>
    <message>
        <source>words in a row, word for word</source>
        <translation>个连续的词（中文为字），逐字相同</translation>
    </message>
    <message>
        <source>Two documents are listed when they hold the same passage of at least this many words (for Chinese, characters) in a row, word for word: 50 is about three sentences. Punctuation and spacing do not count.</source>
        <translation>两个文档逐字含有至少这么多个连续的词（中文为字）相同的段落时列出：50 大约是三句话。标点和空白不计。</translation>
    </message>
    <message>
        <source>Words in a row</source>
        <translation>连续的词数</translation>
    </message>
    <message>
        <source>Leave out wording held by more than</source>
        <translation>不列出超过</translation>
    </message>
    <message>
        <source>documents</source>
        <translation>个文档共有的措辞</translation>
    </message>
    <message>
        <source>A passage that many documents hold is common wording (a standard clause, a well-known quotation), not a copy worth listing: a passage every part of which more than this many documents hold is left out.</source>
        <translation>许多文档都有的段落是常用措辞（标准条款、名言引文），不是值得列出的抄写：每一部分都有超过这么多个文档含有的段落不列出。</translation>
    </message>
    <message>
        <source>Documents that make wording common</source>
        <translation>多少文档共有即算常用措辞</translation>
    </message>
    <message>
        <source>Leave out common text</source>
        <translation>不计常见文字</translation>
    </message>
    <message>
        <source>Passages that open or close 10 % or more of the scanned documents (letterheads, page footers, licence notices, e-mail disclaimers) do not count when documents are compared, so that they do not make unrelated documents look alike; documents of one family (versions of a form, licence variants) keep the text they share.</source>
        <translation>位于 10% 以上已扫描文档开头或结尾的段落（信头、页脚、许可证声明、电子邮件免责声明）在比较文档时不计入，以免让内容无关的文档看起来相似；同一类文档（同一表格的各个版本、同一许可证的各种变体）保留它们共有的文字。</translation>
    </message>
    <message>
        <source>Every pair of documents that are duplicates at this setting: the pairs the Pairs tab lists and the reports give</source>
        <translation>在此设置下互为重复的每一对文档：即“文档对”标签页列出的和报告给出的文档对</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; group(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; 个组</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; document(s) in them</source>
        <translation>
            <numerusform>其中共 &lt;b&gt;%Ln&lt;/b&gt; 个文档</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; excerpt(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; 份摘录</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in &lt;b&gt;%Ln&lt;/b&gt; document(s)</source>
        <translation>
            <numerusform>在 &lt;b&gt;%Ln&lt;/b&gt; 份文档中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%Ln&lt;/b&gt; pair(s) that share passages</source>
        <translation>
            <numerusform>&lt;b&gt;%Ln&lt;/b&gt; 对有共同段落的文档</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) of duplicates within {bits} bits</source>
        <translation>
            <numerusform>%Ln 对重复文档（相差不超过 {bits} 位）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) of duplicates at {share} % or more</source>
        <translation>
            <numerusform>%Ln 对重复文档（相似度 {share} % 及以上）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln pair(s) of duplicates at these settings</source>
        <translation>
            <numerusform>%Ln 对重复文档（按当前设置）</numerusform>
        </translation>
    </message>
    <message>
        <source>Groups and documents at these settings</source>
        <translation>按当前设置得到的组数和文档数</translation>
    </message>
    <message>
        <source>containment ≥ {value}</source>
        <translation>包含度 ≥ {value}</translation>
    </message>
    <message>
        <source>Jaccard ≥ {value}</source>
        <translation>Jaccard ≥ {value}</translation>
    </message>
    <message>
        <source>Hamming ≤ {value}</source>
        <translation>汉明距离 ≤ {value}</translation>
    </message>
    <message numerus="yes">
        <source> bit(s)</source>
        <translation>
            <numerusform> 位</numerusform>
        </translation>
    </message>
    <message>
        <source>What is found at this setting</source>
        <translation>在这个设置下找到的内容</translation>
    </message>
</context>
<context>
    <name>UserGuide</name>
    <message>
        <source>neardup User Guide</source>
        <translation>neardup 使用指南</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>使用指南</translation>
    </message>
</context>
<context>
    <name>Words</name>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>argparse</name>
    <message>
        <source>usage: </source>
        <translation>用法：</translation>
    </message>
    <message>
        <source>positional arguments</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>show this help message and exit</source>
        <translation>显示此帮助信息并退出</translation>
    </message>
    <message>
        <source>show program&apos;s version number and exit</source>
        <translation>显示程序版本号并退出</translation>
    </message>
    <message>
        <source>%(prog)s: error: %(message)s
</source>
        <translation>%(prog)s：错误：%(message)s
</translation>
    </message>
    <message>
        <source>argument %(argument_name)s: %(message)s</source>
        <translation>参数 %(argument_name)s：%(message)s</translation>
    </message>
    <message>
        <source>invalid choice: %(value)r (choose from %(choices)s)</source>
        <translation>无效的选项：%(value)r（可选：%(choices)s）</translation>
    </message>
    <message>
        <source>invalid %(type)s value: %(value)r</source>
        <translation>无效的 %(type)s 值：%(value)r</translation>
    </message>
    <message>
        <source>the following arguments are required: %s</source>
        <translation>缺少必需的参数：%s</translation>
    </message>
    <message>
        <source>unrecognized arguments: %s</source>
        <translation>无法识别的参数：%s</translation>
    </message>
    <message>
        <source>expected one argument</source>
        <translation>需要一个参数值</translation>
    </message>
    <message>
        <source>ambiguous option: %(option)s could match %(matches)s</source>
        <translation>选项不明确：%(option)s 可能是 %(matches)s</translation>
    </message>
</context>
</TS>
