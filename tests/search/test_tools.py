from formats.tools import tool_family, tool_spellings


def test_harness_spellings_of_the_shell_tool_share_one_name():
    assert {tool_family(n) for n in ("bash", "Bash", "shell", "BASH ")} == {"bash"}


def test_unknown_tools_keep_their_name_lower_cased():
    assert tool_family("MyTool") == "mytool"
    assert tool_spellings("MyTool") == ["mytool"]


def test_spellings_of_a_tool_include_every_alias():
    assert {"bash", "shell"} <= set(tool_spellings("Shell"))
