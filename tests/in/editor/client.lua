-- A headless Neovim (0.7 API and later) as an hlslc user runs it: opens one
-- file with no settings, starts `hlslc lsp` with vim.lsp.start_client,
-- waits for the first non-empty publishDiagnostics, then makes each
-- request of HLSLC_EDITOR_REQUESTS in turn, and writes everything it got
-- as JSON to HLSLC_EDITOR_OUT before quitting.
--
-- Environment:
--   HLSLC                 the hlslc binary
--   HLSLC_EDITOR_FILE     the file to open
--   HLSLC_EDITOR_OUT      where to write the result
--   HLSLC_EDITOR_REQUESTS a JSON list of requests at positions of the file,
--                         e.g. [{"method": "textDocument/hover", "line": 3,
--                         "character": 10}] (0-based, UTF-16 columns); the
--                         answers come back in order under "responses".
--                         Hover, definition and the other code-intelligence
--                         requests are added here by their tests. The
--                         server's semantic tokens legend comes back under
--                         "legend". A request with "newName" passes it (a
--                         rename); with "apply": true, the WorkspaceEdit it
--                         returns (or the first code action's) is applied
--                         to the buffer, whose text comes back under "text".
--                         textDocument/codeAction passes the diagnostics.

local out_path = os.getenv('HLSLC_EDITOR_OUT')
local file = os.getenv('HLSLC_EDITOR_FILE')
local requests = vim.json.decode(os.getenv('HLSLC_EDITOR_REQUESTS') or '[]')
local result = { diagnostics = vim.NIL, responses = {}, log = {} }
local done = false

local function finish()
  if done then
    return
  end
  done = true
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
  vim.cmd('qa!')
end

vim.cmd('edit ' .. vim.fn.fnameescape(file))
local bufnr = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(bufnr)
local client_id

local function request(i)
  local r = requests[i]
  if r == nil then
    finish()
    return
  end
  local client = vim.lsp.get_client_by_id(client_id)
  local caps = client.server_capabilities or {}
  if caps.semanticTokensProvider and result.legend == nil then
    result.legend = caps.semanticTokensProvider.legend
  end
  local params = {
    textDocument = { uri = uri },
    position = { line = r.line, character = r.character },
    newName = r.newName,
  }
  if r.method == 'textDocument/formatting' then
    params.options = { tabSize = 4, insertSpaces = true }
  end
  if r.method == 'textDocument/codeAction' then
    -- The actions for the diagnostics the server published.
    params.range = { start = params.position, ['end'] = params.position }
    params.context = { diagnostics = result.diagnostics }
  end
  client.request(r.method, params, function(err, res)
    table.insert(result.responses, { method = r.method, error = err or vim.NIL, result = res or vim.NIL })
    if r.apply and res then
      -- A rename (a WorkspaceEdit) or the first code action applied as the
      -- editor applies them; the buffer's text after.
      if res[1] and res[1].newText then
        -- Formatting: text edits of this buffer.
        vim.lsp.util.apply_text_edits(res, bufnr, 'utf-16')
      else
        local edit = res.changes and res or (res[1] and res[1].edit)
        vim.lsp.util.apply_workspace_edit(edit, 'utf-16')
      end
      result.text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
    end
    request(i + 1)
  end, bufnr)
end

client_id = vim.lsp.start_client({
  name = 'hlslc',
  cmd = { os.getenv('HLSLC'), 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':p:h'),
  handlers = {
    ['textDocument/publishDiagnostics'] = function(_, params)
      if result.diagnostics == vim.NIL and params.uri == uri and #params.diagnostics > 0 then
        result.diagnostics = params.diagnostics
        vim.schedule(function()
          request(1)
        end)
      end
    end,
    ['window/logMessage'] = function(_, params)
      table.insert(result.log, params.message)
    end,
  },
  on_exit = function(code)
    if not done then
      result.exit = code
      vim.schedule(finish)
    end
  end,
})
if client_id == nil then
  result.error = 'vim.lsp.start_client failed'
  finish()
  return
end
vim.lsp.buf_attach_client(bufnr, client_id)
vim.defer_fn(function()
  result.timeout = true
  finish()
end, 30000)
