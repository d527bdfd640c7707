import assert from 'node:assert/strict';
import fs from 'node:fs';
import { TITLE_COMMANDS, TITLE_PLACES, titleCommandId } from '../../src/common/conversation/titleCommands';

type Command = { command: string; title: string; icon?: string; enablement?: string };
type MenuItem = { command: string; when?: string };

describe("the chat's title-bar buttons (manifest)", () => {
  const c = JSON.parse(fs.readFileSync('package.json', 'utf8')).contributes;
  const declared = (id: string) => (c.commands as Command[]).find(x => x.command === id);
  const chatMenu = (menu: string, when: string) => (c.menus[menu] as MenuItem[]).filter(m => m.when?.startsWith(when));

  it("the side bar's buttons act on the side bar's conversation, the editor tab's on the editor tab's", () => {
    const sideBar = chatMenu('view/title', 'view == switchboard.chat');
    const editorTab = chatMenu('editor/title', "activeWebviewPanelId == 'switchboard.chat.editor'");
    for (const m of sideBar) {
      const name = m.command.replace(/^switchboard\.(sideBar\.)?/, '');
      if ((TITLE_COMMANDS as readonly string[]).includes(name)) assert.equal(m.command, titleCommandId('sideBar', name));
    }
    assert.ok(editorTab.length > 0);
    for (const m of editorTab) assert.match(m.command, /^switchboard\.editorTab\./);
    assert.ok(sideBar.some(m => m.command === titleCommandId('sideBar', 'stopAgent')));
    assert.ok(editorTab.some(m => m.command === titleCommandId('editorTab', 'newConversation')));
  });

  it('each button is declared like its palette command and hidden from the palette', () => {
    const hidden = new Set((c.menus.commandPalette as MenuItem[]).filter(m => m.when === 'false').map(m => m.command));
    for (const place of TITLE_PLACES) for (const name of TITLE_COMMANDS) {
      const id = titleCommandId(place, name);
      const { command: _c, ...button } = declared(id) ?? assert.fail(`${id} declared`);
      const { command: _p, ...palette } = declared(`switchboard.${name}`) ?? assert.fail(`switchboard.${name} declared`);
      assert.deepEqual(button, palette, id);
      assert.ok(hidden.has(id), `${id} hidden from the palette`);
    }
  });
});
